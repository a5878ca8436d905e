package io.flashsale.adapter.mysql;

import org.apache.ibatis.executor.parameter.ParameterHandler;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.mapping.SqlSource;
import org.apache.ibatis.parsing.XNode;
import org.apache.ibatis.scripting.xmltags.XMLLanguageDriver;
import org.apache.ibatis.session.Configuration;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The language of the batch pipeline's multi-row statements ({@code lang} on the statement in the mapper XML): text
 * and one {@code <foreach collection item separator [open close]>} whose body is text with {@code #{}} parameters.
 * MyBatis' own dynamic SQL rebuilds and re-parses such a statement on every call (a text fragment, a binding and a
 * parsed parameter mapping per row and column); here the statement is parsed once, at start-up, and a call only
 * repeats the parsed row {@code n} times ({@link RowsSqlSource}). Values still travel as bind parameters only.
 *
 * <p>Anything else in the statement ({@code <if>}, {@code <choose>}, {@code ${}}, a second loop) is refused at start-up:
 * the statement's text must depend on the number of rows alone. Public because MyBatis instantiates it by reflection.
 */
public class RowsLanguageDriver extends XMLLanguageDriver {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** A rows statement's values are bound by {@link RowsParameterHandler}; any other as MyBatis does. */
    @Override
    public ParameterHandler createParameterHandler(MappedStatement statement, Object parameterObject,
                                                   BoundSql boundSql) {
        return boundSql instanceof RowsBoundSql rows ? new RowsParameterHandler(statement, parameterObject, rows)
                : super.createParameterHandler(statement, parameterObject, boundSql);
    }

    @Override
    public SqlSource createSqlSource(Configuration configuration, XNode script, Class<?> parameterType) {
        StringBuilder prefix = new StringBuilder();
        StringBuilder suffix = new StringBuilder();
        XNode loop = null;
        NodeList children = script.getNode().getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            XNode child = script.newXNode(children.item(i));
            short type = child.getNode().getNodeType();
            if (type == Node.TEXT_NODE || type == Node.CDATA_SECTION_NODE) {
                (loop == null ? prefix : suffix).append(text(script, child)).append(' ');
            } else if (type == Node.ELEMENT_NODE && "foreach".equals(child.getName()) && loop == null) {
                loop = child;
            } else if (type != Node.COMMENT_NODE) {
                throw refused(script, "only text and one <foreach> are allowed, found <" + child.getName() + ">");
            }
        }
        if (loop == null) {
            throw refused(script, "no <foreach>: use MyBatis' default language");
        }
        return new RowsSqlSource(configuration, parameterType == null ? Object.class : parameterType,
                prefix.toString(), rowsOf(script, loop), suffix.toString());
    }

    private static RowsSqlSource.Rows rowsOf(XNode script, XNode loop) {
        for (String unsupported : List.of("index", "nullable")) {
            if (loop.getStringAttribute(unsupported) != null) {
                throw refused(script, "<foreach " + unsupported + "> is not supported");
            }
        }
        String collection = name(script, loop, "collection");
        String item = name(script, loop, "item");
        StringBuilder body = new StringBuilder();
        NodeList children = loop.getNode().getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            XNode child = loop.newXNode(children.item(i));
            short type = child.getNode().getNodeType();
            if (type == Node.TEXT_NODE || type == Node.CDATA_SECTION_NODE) {
                body.append(text(script, child));
            } else if (type != Node.COMMENT_NODE) {
                throw refused(script, "<foreach> may hold text only, found <" + child.getName() + ">");
            }
        }
        return new RowsSqlSource.Rows(collection, item, body.toString(), loop.getStringAttribute("separator", ""),
                loop.getStringAttribute("open", ""), loop.getStringAttribute("close", ""));
    }

    private static String text(XNode script, XNode child) {
        String text = child.getStringBody("");
        if (text.contains("${")) {
            throw refused(script, "${} substitutes text per call; use #{}");
        }
        return text;
    }

    private static String name(XNode script, XNode loop, String attribute) {
        String value = loop.getStringAttribute(attribute);
        if (value == null || !NAME.matcher(value).matches()) {
            throw refused(script, "<foreach " + attribute + "> must be a plain name, was " + value);
        }
        return value;
    }

    private static IllegalArgumentException refused(XNode script, String why) {
        return new IllegalArgumentException("statement " + script.getStringAttribute("id") + " (lang "
                + RowsLanguageDriver.class.getSimpleName() + "): " + why);
    }
}
