package io.flashsale.adapter.mysql;

import io.flashsale.application.outage.port.out.DatabaseProbePort;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;

/**
 * {@code SELECT 1} through the service's pool: true when the database answered it. A connection refused, a pool with no
 * free connection within its wait or a statement that failed all say "not now"; the order consumer keeps its
 * partitions held meanwhile (ADR 78).
 */
public class MysqlDatabaseProbe implements DatabaseProbePort {

    private final JdbcTemplate jdbc;

    public MysqlDatabaseProbe(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    @Override
    public boolean answers() {
        try {
            Integer one = jdbc.queryForObject("SELECT 1", Integer.class);
            return one != null && one == 1;
        } catch (DataAccessException notNow) {
            return false;
        }
    }
}
