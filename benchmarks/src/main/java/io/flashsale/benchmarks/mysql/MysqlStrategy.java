package io.flashsale.benchmarks.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.flashsale.benchmarks.InventoryStrategy;
import io.flashsale.benchmarks.SaleItem;
import io.flashsale.benchmarks.Take;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the three MySQL strategies share: a database of their own ({@code flashsale_bench_<random>}, dropped on
 * close), a stock row per SKU, a purchase row per (buyer, SKU) that guards the limit, a connection pool, and the
 * counting of deadlocks and lock wait timeouts (each retried a bounded number of times). Subclasses write one
 * attempt.
 */
public abstract sealed class MysqlStrategy implements InventoryStrategy
        permits MysqlPessimisticStrategy, MysqlOptimisticStrategy, MysqlConditionalStrategy {

    static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    static final int ER_LOCK_DEADLOCK = 1213;
    private static final int TRANSIENT_TRIES = 5;

    private final MysqlServer server;
    private final String database;
    private final HikariDataSource pool;
    private final Map<String, Integer> limits = new ConcurrentHashMap<>();
    private final LongAdder deadlocks = new LongAdder();
    private final LongAdder lockWaitTimeouts = new LongAdder();

    protected MysqlStrategy(MysqlServer server, int poolSize) {
        this.server = server;
        this.database = "flashsale_bench_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        execute(server.url(""), "CREATE DATABASE `" + database + "`");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.url(database));
        config.setUsername(server.user());
        config.setPassword(server.password());
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setPoolName(getClass().getSimpleName());
        this.pool = new HikariDataSource(config);
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE bench_stock (sku VARCHAR(64) PRIMARY KEY, total BIGINT NOT NULL,"
                    + " sold BIGINT NOT NULL, version BIGINT NOT NULL) ENGINE=InnoDB");
            statement.execute("CREATE TABLE bench_purchase (buyer VARCHAR(64) NOT NULL, sku VARCHAR(64) NOT NULL,"
                    + " units INT NOT NULL, PRIMARY KEY (buyer, sku)) ENGINE=InnoDB");
        } catch (SQLException e) {
            pool.close();
            throw new IllegalStateException("cannot create the benchmark schema in " + database, e);
        }
    }

    /** One attempt on a connection whose auto-commit is off; commits or rolls back itself. */
    protected abstract Take attempt(Connection connection, String sku, String buyer, int quantity, int limit)
            throws SQLException;

    @Override
    public void stock(SaleItem item) {
        limits.put(item.sku(), item.perBuyerLimit());
        try (Connection connection = pool.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO bench_stock (sku, total, sold, version) VALUES (?, ?, 0, 0)")) {
            insert.setString(1, item.sku());
            insert.setLong(2, item.stock());
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot stock " + item, e);
        }
    }

    @Override
    public final Take take(String sku, String buyer, int quantity) {
        int limit = limits.get(sku);
        for (int tries = 0; tries < TRANSIENT_TRIES; tries++) {
            try (Connection connection = pool.getConnection()) {
                connection.setAutoCommit(false);
                try {
                    return attempt(connection, sku, buyer, quantity, limit);
                } catch (SQLException e) {
                    connection.rollback();
                    if (!countedAsTransient(e)) {
                        throw e;
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException(name() + ": " + e.getMessage(), e);
            }
        }
        return Take.GAVE_UP;
    }

    private boolean countedAsTransient(SQLException e) {
        if (e.getErrorCode() == ER_LOCK_DEADLOCK) {
            deadlocks.increment();
            return true;
        }
        if (e.getErrorCode() == ER_LOCK_WAIT_TIMEOUT) {
            lockWaitTimeouts.increment();
            return true;
        }
        return false;
    }

    /** Makes the buyer's purchase row if it is missing, in its own tiny transaction, so guards can lock it. */
    static void ensurePurchaseRow(Connection connection, String sku, String buyer) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT IGNORE INTO bench_purchase (buyer, sku, units) VALUES (?, ?, 0)")) {
            insert.setString(1, buyer);
            insert.setString(2, sku);
            insert.executeUpdate();
        }
        connection.commit();
    }

    /** The limit guard: adds the units to the buyer's row only if the buyer stays within the limit. */
    static boolean addWithinLimit(Connection connection, String sku, String buyer, int quantity, int limit)
            throws SQLException {
        try (PreparedStatement guard = connection.prepareStatement(
                "UPDATE bench_purchase SET units = units + ? WHERE buyer = ? AND sku = ? AND units + ? <= ?")) {
            guard.setInt(1, quantity);
            guard.setString(2, buyer);
            guard.setString(3, sku);
            guard.setInt(4, quantity);
            guard.setInt(5, limit);
            return guard.executeUpdate() == 1;
        }
    }

    static Take rollback(Connection connection, Take refusal) throws SQLException {
        connection.rollback();
        return refusal;
    }

    @Override
    public long unitsLeft(String sku) {
        try (Connection connection = pool.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT total - sold FROM bench_stock WHERE sku = ?")) {
            select.setString(1, sku);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the stock of " + sku, e);
        }
    }

    @Override
    public Map<String, Long> counters() {
        return Map.of("deadlocks", deadlocks.sum(), "lock wait timeouts", lockWaitTimeouts.sum(),
                "row lock waits (server-wide)", serverRowLockWaits());
    }

    /** InnoDB's count of row lock waits since the server started: every client's, not only ours. */
    private long serverRowLockWaits() {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_row_lock_waits'")) {
            return row.next() ? row.getLong(2) : 0;
        } catch (SQLException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        pool.close();
        execute(server.url(""), "DROP DATABASE IF EXISTS `" + database + "`");
    }

    private void execute(String url, String sql) {
        try (Connection connection = DriverManager.getConnection(url, server.user(), server.password());
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + sql, e);
        }
    }
}
