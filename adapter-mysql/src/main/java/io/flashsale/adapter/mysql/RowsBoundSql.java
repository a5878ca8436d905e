package io.flashsale.adapter.mysql;

import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.ParameterMapping;
import org.apache.ibatis.session.Configuration;

import java.util.List;

/**
 * A multi-row statement's bound SQL that also knows where its rows' values are: after {@code prefixMappings}
 * mappings of the statement's own parameters come {@code rows.size()} rows of {@code rowProperties.size()} values
 * each, value {@code c} of row {@code r} being property {@code rowProperties[c]} of {@code rows[r]}. So the
 * parameters can be bound without resolving every {@code orders[3].placedAt} anew ({@link RowsParameterHandler}).
 */
final class RowsBoundSql extends BoundSql {

    private final int prefixMappings;
    private final List<?> rows;
    private final List<String> rowProperties;

    /**
     * @param rowProperties per column: the row's property ({@code ""} for the row itself), or null where it is not a
     *                      plain property of the row (nested, {@code a.b}, or a parameter of the statement) and is left
     *                      to MyBatis' own resolution
     */
    RowsBoundSql(Configuration configuration, String sql, List<ParameterMapping> mappings, Object parameterObject,
                 int prefixMappings, List<?> rows, List<String> rowProperties) {
        super(configuration, sql, mappings, parameterObject);
        this.prefixMappings = prefixMappings;
        this.rows = rows;
        this.rowProperties = rowProperties;
    }

    int prefixMappings() {
        return prefixMappings;
    }

    List<?> rows() {
        return rows;
    }

    List<String> rowProperties() {
        return rowProperties;
    }
}
