package io.flashsale.bootstrap.archfixture;

import com.mysql.archfixture.DriverStandIn;
import com.zaxxer.hikari.HikariDataSource;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/** Breaks the rules on purpose: each nested class uses one part of the JDBC stack outside the MySQL adapter. */
public final class BootstrapUsingPersistence {

    public static class UsingHikari {
        public HikariDataSource dataSource;
    }

    public static class UsingTheMysqlDriver {
        public DriverStandIn driver;
    }

    public static class UsingFlyway {
        public Flyway flyway;
    }

    public static class UsingSpringJdbc {
        public JdbcTemplate jdbc;
    }

    public static class UsingSpringTransactions {
        public TransactionTemplate transactions;
    }

    /** The scheduled jobs' locks are rows in the database: their provider belongs to the MySQL adapter too. */
    public static class UsingShedLocksJdbcProvider {
        public JdbcTemplateLockProvider locks;
    }

    private BootstrapUsingPersistence() {
    }
}
