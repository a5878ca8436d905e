package io.flashsale.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/** A MySQL-compatible server (MariaDB here, MySQL in a container) that tests may create databases on. */
public record MariaDbEndpoint(String host, int port, String username, String password) {

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z0-9_]{1,64}");

    /** The JDBC URL of a database on this server; the database is created when absent. */
    public String jdbcUrl(String database) {
        createDatabase(database);
        return url(database);
    }

    /**
     * The JDBC URL of a database that must already exist, created on no account: a replica's, whose databases arrive
     * from its primary.
     */
    public String existingDatabaseUrl(String database) {
        return url(database);
    }

    /** The datasource properties of {@code database} on this server; the database is created when absent. */
    public SpringDatasource springDatasource(String database) {
        return new SpringDatasource(jdbcUrl(database), username, password);
    }

    /** This server as reached through a proxy listening on this host's {@code port}, with the same credentials. */
    public MariaDbEndpoint through(int port) {
        return new MariaDbEndpoint("127.0.0.1", port, username, password);
    }

    public void createDatabase(String database) {
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("test database names are [a-z0-9_]: " + database);
        }
        try (Connection connection = DriverManager.getConnection(url(""), username, password);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS `" + database + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + database + " on " + host + ":" + port, e);
        }
    }

    /** Drops and re-creates a database: for tests that must start from an empty schema. */
    public void recreateDatabase(String database) {
        createDatabase(database);
        try (Connection connection = DriverManager.getConnection(url(""), username, password);
             Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE `" + database + "`");
            statement.execute("CREATE DATABASE `" + database + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot re-create test database " + database, e);
        }
    }

    /**
     * A new, empty database named {@code <prefix>_<random>} that exists only for this test JVM: dropped when the
     * JVM exits. Test runs that overlap on one server (two checkouts, a developer and CI) never share a schema.
     */
    public String freshDatabase(String prefix) {
        String database = prefix + "_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        createDatabase(database);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> dropQuietly(database)));
        return database;
    }

    private void dropQuietly(String database) {
        try (Connection connection = DriverManager.getConnection(url(""), username, password);
             Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS `" + database + "`");
        } catch (SQLException e) {
            System.err.println("[flashsale-tests] could not drop test database " + database + ": " + e.getMessage());
        }
    }

    private String url(String database) {
        return "jdbc:mysql://" + host + ":" + port + "/" + database
                + "?useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
    }
}
