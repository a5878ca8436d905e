package io.flashsale.testsupport;

import io.flashsale.embedded.EmbeddedMariaDb;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A MariaDB primary and its replica, both the demo mode's MariaDB 10.11 on free ports with throwaway data, replicating
 * row events by GTID: for the tests of reads served by a replica. A test owns the pair (it stops and starts the
 * replica's threads), so the pair never comes from {@link TestServices}' shared servers.
 */
public final class MariaDbReplication implements AutoCloseable {

    private final EmbeddedMariaDb primaryServer;
    private final EmbeddedMariaDb replicaServer;

    private MariaDbReplication(EmbeddedMariaDb primaryServer, EmbeddedMariaDb replicaServer) {
        this.primaryServer = primaryServer;
        this.replicaServer = replicaServer;
    }

    /** Starts both servers side by side and the replica's replication from the primary's first transaction. */
    public static MariaDbReplication start() {
        CompletableFuture<EmbeddedMariaDb> primary = CompletableFuture.supplyAsync(() -> EmbeddedMariaDb.startThrowaway(
                0, List.of("--server-id=1", "--log-bin=primary-bin", "--binlog-format=ROW")));
        CompletableFuture<EmbeddedMariaDb> replica = CompletableFuture.supplyAsync(() -> EmbeddedMariaDb.startThrowaway(
                0, List.of("--server-id=2", "--read-only", "--relay-log=replica-relay")));
        MariaDbReplication pair;
        try {
            pair = new MariaDbReplication(primary.join(), replica.join());
        } catch (RuntimeException failed) {
            primary.thenAccept(EmbeddedMariaDb::close);
            replica.thenAccept(EmbeddedMariaDb::close);
            throw failed;
        }
        try {
            pair.onReplica("CHANGE MASTER TO MASTER_HOST='" + pair.primaryServer.address().host()
                    + "', MASTER_PORT=" + pair.primaryServer.address().port() + ", MASTER_USER='"
                    + EmbeddedMariaDb.USER + "', MASTER_PASSWORD='" + EmbeddedMariaDb.PASSWORD
                    + "', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1");
            pair.startReplication();
            return pair;
        } catch (RuntimeException failed) {
            pair.close();
            throw failed;
        }
    }

    public MariaDbEndpoint primary() {
        return endpoint(primaryServer);
    }

    public MariaDbEndpoint replica() {
        return endpoint(replicaServer);
    }

    /** Creates {@code database} on the primary and waits until the replica has it too. */
    public void createDatabase(String database) {
        primary().createDatabase(database);
        awaitCaughtUp(Duration.ofSeconds(30));
    }

    public void startReplication() {
        onReplica("START SLAVE");
    }

    /** Both threads stopped: replication is off, the replica answers with what it had. */
    public void stopReplication() {
        onReplica("STOP SLAVE");
    }

    /** The primary's events still arrive but are not applied: the replica falls behind. */
    public void stopApplying() {
        onReplica("STOP SLAVE SQL_THREAD");
    }

    public void resumeApplying() {
        onReplica("START SLAVE SQL_THREAD");
    }

    /**
     * The replica applies each transaction only once it is {@code delay} old ({@code MASTER_DELAY}): it falls behind by
     * that much while reporting a lag that grows from zero. {@link Duration#ZERO} applies everything pending at once.
     */
    public void delayApplying(Duration delay) {
        stopReplication();
        onReplica("CHANGE MASTER TO MASTER_DELAY=" + delay.toSeconds());
        startReplication();
    }

    /** Waits until the replica has applied everything the primary had committed when this was called. */
    public void awaitCaughtUp(Duration timeout) {
        String position = queryPrimary("SELECT @@GLOBAL.gtid_binlog_pos");
        String waited;
        try (Connection connection = connect(replicaServer); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT MASTER_GTID_WAIT('" + position + "', "
                     + timeout.toMillis() / 1000.0 + ")")) {
            result.next();
            waited = result.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot wait for the replica to reach " + position, e);
        }
        if (!"0".equals(waited)) {
            throw new IllegalStateException("the replica did not reach the primary's " + position + " in " + timeout);
        }
    }

    @Override
    public void close() {
        try {
            replicaServer.close();
        } finally {
            primaryServer.close();
        }
    }

    private String queryPrimary(String query) {
        try (Connection connection = connect(primaryServer); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(query)) {
            result.next();
            return result.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot ask the primary: " + query, e);
        }
    }

    private void onReplica(String sql) {
        try (Connection connection = connect(replicaServer); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("the replica refused: " + sql, e);
        }
    }

    private static Connection connect(EmbeddedMariaDb server) throws SQLException {
        return DriverManager.getConnection(endpoint(server).existingDatabaseUrl(""), EmbeddedMariaDb.USER,
                EmbeddedMariaDb.PASSWORD);
    }

    private static MariaDbEndpoint endpoint(EmbeddedMariaDb server) {
        return new MariaDbEndpoint(server.address().host(), server.address().port(), EmbeddedMariaDb.USER,
                EmbeddedMariaDb.PASSWORD);
    }
}
