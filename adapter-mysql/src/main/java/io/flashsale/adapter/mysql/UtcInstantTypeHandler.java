package io.flashsale.adapter.mysql;

import org.apache.ibatis.type.BaseTypeHandler;
import org.apache.ibatis.type.JdbcType;

import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Instants as UTC wall-clock DATETIME(3) values, independent of the JVM's and the server's time zones.
 * Written as text because Connector/J takes MariaDB 10.x (which announces itself as 5.5.5-10.x) for a server
 * without fractional seconds and would drop the milliseconds of a temporal parameter; read back as a
 * LocalDateTime, which the driver does not shift.
 */
public class UtcInstantTypeHandler extends BaseTypeHandler<Instant> {

    private static final DateTimeFormatter WALL_CLOCK = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

    @Override
    public void setNonNullParameter(PreparedStatement statement, int index, Instant instant, JdbcType jdbcType)
            throws SQLException {
        statement.setString(index, WALL_CLOCK.format(LocalDateTime.ofInstant(instant, ZoneOffset.UTC)));
    }

    @Override
    public Instant getNullableResult(ResultSet resultSet, String column) throws SQLException {
        return toInstant(resultSet.getObject(column, LocalDateTime.class));
    }

    @Override
    public Instant getNullableResult(ResultSet resultSet, int index) throws SQLException {
        return toInstant(resultSet.getObject(index, LocalDateTime.class));
    }

    @Override
    public Instant getNullableResult(CallableStatement statement, int index) throws SQLException {
        return toInstant(statement.getObject(index, LocalDateTime.class));
    }

    private static Instant toInstant(LocalDateTime utc) {
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }
}
