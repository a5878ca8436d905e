package io.flashsale.adapter.mysql;

import org.apache.ibatis.builder.SqlSourceBuilder;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.ParameterMapping;
import org.apache.ibatis.mapping.SqlSource;
import org.apache.ibatis.session.Configuration;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A multi-row statement whose text depends only on its number of rows ({@link RowsLanguageDriver}): the text around the
 * rows and one row are parsed once; a call of {@code n} rows writes the parsed row {@code n} times and takes the
 * parameter mappings of rows {@code 0..n-1}, which name their values by index ({@code orders[3].placedAt}) and are
 * made once per index for the life of the statement. So a call costs one pass over its values, not a parse.
 */
final class RowsSqlSource implements SqlSource {

    /** The loop as the mapper XML declares it. */
    record Rows(String collection, String item, String body, String separator, String open, String close) {
    }

    private final Configuration configuration;
    private final Class<?> parameterType;
    private final Rows rows;
    private final Pattern itemReference;
    private final Parsed prefix;
    private final Parsed suffix;
    private final String rowSql;
    /** Per column of a row: the row's own property it binds, or null ({@link RowsBoundSql}). */
    private final List<String> rowProperties;
    /** Row {@code i}'s mappings at index {@code i}; grown (copied) when a call has more rows than any before. */
    private volatile List<List<ParameterMapping>> rowMappings = List.of();

    private record Parsed(String sql, List<ParameterMapping> mappings) {
    }

    RowsSqlSource(Configuration configuration, Class<?> parameterType, String prefix, Rows rows, String suffix) {
        this.configuration = configuration;
        this.parameterType = parameterType;
        this.rows = rows;
        this.itemReference = Pattern.compile("#\\{\\s*" + Pattern.quote(rows.item()) + "(?=[\\s.,}])");
        this.prefix = parse(prefix);
        this.suffix = parse(suffix);
        Parsed firstRow = parse(rowText(0));
        this.rowSql = firstRow.sql();
        this.rowProperties = rowProperties(firstRow.mappings());
    }

    /** {@code orders[0].placedAt} is {@code placedAt}, {@code ids[0]} is {@code ""}, anything else null. */
    private List<String> rowProperties(List<ParameterMapping> firstRow) {
        String row = rows.collection() + "[0]";
        List<String> properties = new ArrayList<>(firstRow.size());
        for (ParameterMapping mapping : firstRow) {
            String name = mapping.getProperty();
            String rest = name.startsWith(row + ".") ? name.substring(row.length() + 1) : null;
            boolean plain = rest != null && rest.indexOf('.') < 0 && rest.indexOf('[') < 0;
            properties.add(name.equals(row) ? "" : plain ? rest : null);
        }
        return Collections.unmodifiableList(properties);
    }

    @Override
    public BoundSql getBoundSql(Object parameterObject) {
        List<?> items = rowsOf(parameterObject);
        int count = items.size();
        List<List<ParameterMapping>> perRow = mappingsOfRows(count);
        int width = count == 0 ? 0 : perRow.getFirst().size();
        List<ParameterMapping> mappings = new ArrayList<>(prefix.mappings().size() + count * width
                + suffix.mappings().size());
        StringBuilder sql = new StringBuilder(prefix.sql().length() + suffix.sql().length()
                + count * (rowSql.length() + rows.separator().length() + 2) + 16);
        sql.append(prefix.sql());
        mappings.addAll(prefix.mappings());
        if (count > 0) {
            sql.append(' ').append(rows.open());
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    sql.append(' ').append(rows.separator()).append(' ');
                }
                sql.append(rowSql);
                mappings.addAll(perRow.get(i));
            }
            sql.append(rows.close());
        }
        sql.append(' ').append(suffix.sql());
        mappings.addAll(suffix.mappings());
        return new RowsBoundSql(configuration, sql.toString(), mappings, parameterObject, prefix.mappings().size(),
                items, rowProperties);
    }

    private List<?> rowsOf(Object parameterObject) {
        Object value = parameterObject instanceof Map<?, ?> map ? map.get(rows.collection())
                : configuration.newMetaObject(parameterObject).getValue(rows.collection());
        if (value instanceof List<?> list) {
            return list;
        }
        throw new IllegalArgumentException("the rows '" + rows.collection() + "' must be a List, were " + value);
    }

    private List<List<ParameterMapping>> mappingsOfRows(int count) {
        List<List<ParameterMapping>> known = rowMappings;
        if (known.size() >= count) {
            return known;
        }
        synchronized (this) {
            known = rowMappings;
            if (known.size() < count) {
                List<List<ParameterMapping>> grown = new ArrayList<>(Math.max(count, known.size() * 2));
                grown.addAll(known);
                for (int i = known.size(); i < count; i++) {
                    Parsed row = parse(rowText(i));
                    if (!row.sql().equals(rowSql)) {
                        throw new IllegalStateException("row " + i + " parsed as " + row.sql() + ", row 0 as " + rowSql);
                    }
                    grown.add(List.copyOf(row.mappings()));
                }
                known = List.copyOf(grown);
                rowMappings = known;
            }
            return known;
        }
    }

    /** The row's body with its item named by index: {@code #{o.placedAt}} becomes {@code #{orders[3].placedAt}}. */
    private String rowText(int index) {
        return itemReference.matcher(rows.body())
                .replaceAll(Matcher.quoteReplacement("#{" + rows.collection() + "[" + index + "]"));
    }

    private Parsed parse(String text) {
        BoundSql parsed = new SqlSourceBuilder(configuration).parse(text, parameterType, new HashMap<>())
                .getBoundSql(null);
        return new Parsed(parsed.getSql(), parsed.getParameterMappings());
    }
}
