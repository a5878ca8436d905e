package io.flashsale.adapter.mysql;

import org.apache.ibatis.executor.ErrorContext;
import org.apache.ibatis.executor.parameter.ParameterHandler;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.mapping.ParameterMapping;
import org.apache.ibatis.mapping.ParameterMode;
import org.apache.ibatis.reflection.MetaObject;
import org.apache.ibatis.reflection.ReflectorFactory;
import org.apache.ibatis.reflection.invoker.Invoker;
import org.apache.ibatis.scripting.defaults.DefaultParameterHandler;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.type.JdbcType;
import org.apache.ibatis.type.TypeException;
import org.apache.ibatis.type.TypeHandler;

import java.lang.reflect.InvocationTargetException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Binds a multi-row statement's values as MyBatis' {@code DefaultParameterHandler} does, the same value with the
 * same type handler and JDBC type at every place, but takes a row's value straight from the row: the default
 * handler resolves every {@code orders[3].placedAt} through a property tokenizer, a map look-up, a list look-up and
 * a reflector look-up, which was 15% of the draining consumer's CPU (docs/order-pipeline.md). The statement's own
 * parameters before and after the rows, nested row properties, and rows that are maps or collections go through
 * MyBatis' {@link MetaObject} as before. {@code RowsLanguageDriverTest} binds both ways and compares them.
 */
final class RowsParameterHandler implements ParameterHandler {

    private static final Object[] NO_ARGUMENTS = {};

    private final MappedStatement statement;
    private final Configuration configuration;
    private final Object parameterObject;
    private final RowsBoundSql bound;

    RowsParameterHandler(MappedStatement statement, Object parameterObject, RowsBoundSql bound) {
        this.statement = statement;
        this.configuration = statement.getConfiguration();
        this.parameterObject = parameterObject;
        this.bound = bound;
    }

    @Override
    public Object getParameterObject() {
        return parameterObject;
    }

    @Override
    public void setParameters(PreparedStatement ps) throws SQLException {
        if (!bound.getAdditionalParameters().isEmpty()) {
            // Set by a plugin: they may shadow any name, so the default resolution decides every value.
            new DefaultParameterHandler(statement, parameterObject, bound).setParameters(ps);
            return;
        }
        ErrorContext.instance().activity("setting parameters").object(statement.getParameterMap().getId());
        List<ParameterMapping> mappings = bound.getParameterMappings();
        List<?> rows = bound.rows();
        List<String> properties = bound.rowProperties();
        int width = properties.size();
        int rowsStart = bound.prefixMappings();
        int rowsEnd = rowsStart + rows.size() * width;
        MetaObject parameters = configuration.newMetaObject(parameterObject);
        ReflectorFactory reflectors = configuration.getReflectorFactory();
        for (int i = 0; i < mappings.size(); i++) {
            ParameterMapping mapping = mappings.get(i);
            if (mapping.getMode() == ParameterMode.OUT) {
                continue;
            }
            Object value;
            if (i >= rowsStart && i < rowsEnd) {
                Object row = rows.get((i - rowsStart) / width);
                String property = properties.get((i - rowsStart) % width);
                value = property == null || row == null || row instanceof Map<?, ?> || row instanceof Collection<?>
                        // Not the row's own property, nested, or not a bean: MyBatis' own resolution of the name.
                        ? statementValue(mapping.getProperty(), parameters)
                        : rowValue(row, property, mapping, reflectors);
            } else {
                value = statementValue(mapping.getProperty(), parameters);
            }
            bind(ps, i, mapping, value);
        }
    }

    /** As {@code DefaultParameterHandler} finds a value (with no additional parameters). */
    private Object statementValue(String property, MetaObject parameters) {
        if (parameterObject == null) {
            return null;
        }
        if (configuration.getTypeHandlerRegistry().hasTypeHandler(parameterObject.getClass())) {
            return parameterObject;
        }
        return parameters.getValue(property);
    }

    private Object rowValue(Object row, String property, ParameterMapping mapping, ReflectorFactory reflectors) {
        if (property.isEmpty()) {
            return row;
        }
        Invoker getter = reflectors.findForClass(row.getClass()).getGetInvoker(property);
        try {
            return getter.invoke(row, NO_ARGUMENTS);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new TypeException("Could not read " + mapping.getProperty() + " of " + row.getClass().getName(), e);
        }
    }

    private void bind(PreparedStatement ps, int index, ParameterMapping mapping, Object value) {
        @SuppressWarnings("unchecked")
        TypeHandler<Object> handler = (TypeHandler<Object>) mapping.getTypeHandler();
        JdbcType jdbcType = mapping.getJdbcType();
        if (value == null && jdbcType == null) {
            jdbcType = configuration.getJdbcTypeForNull();
        }
        try {
            handler.setParameter(ps, index + 1, value, jdbcType);
        } catch (TypeException | SQLException e) {
            throw new TypeException("Could not set parameters for mapping: " + mapping + ". Cause: " + e, e);
        }
    }
}
