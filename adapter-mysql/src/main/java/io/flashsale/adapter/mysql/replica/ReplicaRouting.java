package io.flashsale.adapter.mysql.replica;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import javax.sql.DataSource;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Decides, read by read, whether the replica or the primary answers (ADR 86). Listings may trail the primary by at most
 * {@code max-lag}; the figures reconciliation and rebuilds act on must be as current as a read of the primary, so the
 * replica answers them only once it has applied every transaction the primary had committed when the read was asked
 * for. The replica's status is read at most once per {@code check-interval}, whoever asks; a change of route is logged
 * once.
 */
public final class ReplicaRouting {

    public static final String LAG = "flashsale.db.replica.lag.seconds";
    public static final String SERVING = "flashsale.db.replica.serving";
    public static final String READS = "flashsale.db.reads";

    /** What a read may be: a few seconds behind, or current. */
    public enum Reads {
        /** The operator's lists and reports: behind by at most {@code max-lag}. */
        LISTING,
        /** What a repair or a rebuild is computed from: nothing the primary had committed when asked may be missing. */
        FIGURES
    }

    private static final System.Logger LOG = System.getLogger(ReplicaRouting.class.getName());

    private final DataSource primary;
    private final DataSource replica;
    private final ReplicaSettings settings;
    private final LongSupplier nanoTime;
    private final Map<Reads, Counter> toPrimary = new EnumMap<>(Reads.class);
    private final Map<Reads, Counter> toReplica = new EnumMap<>(Reads.class);
    private final AtomicBoolean catchUpFailureLogged = new AtomicBoolean();
    private volatile Health health;
    /** Whether a route was logged yet: the first check logs where reads go, later ones only a change. */
    private boolean routeLogged;

    private ReplicaRouting(DataSource primary, DataSource replica, ReplicaSettings settings, MeterRegistry meters,
                           LongSupplier nanoTime) {
        this.primary = primary;
        this.replica = replica;
        this.settings = settings;
        this.nanoTime = nanoTime;
        this.health = replica == null ? Health.none()
                : new Health(false, Double.NaN, "not checked yet", nanoTime.getAsLong() - intervalNanos() - 1);
        for (Reads reads : Reads.values()) {
            String tag = reads.name().toLowerCase(Locale.ROOT);
            toPrimary.put(reads, Counter.builder(READS).tag("reads", tag).tag("target", "primary")
                    .description("Reads of the database of record, by where they were served").register(meters));
            toReplica.put(reads, Counter.builder(READS).tag("reads", tag).tag("target", "replica")
                    .description("Reads of the database of record, by where they were served").register(meters));
        }
        Gauge.builder(LAG, this, routing -> routing.health.lagSeconds())
                .description("The replica's replication lag at its last check; NaN when unknown or none configured")
                .baseUnit("seconds").register(meters);
        // From the last check, never a check of its own: a scrape must not query the replica.
        Gauge.builder(SERVING, this, routing -> routing.replica == null ? Double.NaN
                        : routing.health.usable() ? 1 : 0)
                .description("1 when the replica's last check found it fit to serve reads, 0 when reads go to the "
                        + "primary; NaN when none is configured").register(meters);
    }

    /** Every read on the primary: no replica is configured. */
    public static ReplicaRouting primaryOnly(MeterRegistry meters) {
        return new ReplicaRouting(null, null, null, meters, System::nanoTime);
    }

    public static ReplicaRouting between(DataSource primary, DataSource replica, ReplicaSettings settings,
                                         MeterRegistry meters) {
        return new ReplicaRouting(primary, replica, settings, meters, System::nanoTime);
    }

    /**
     * {@code read} of {@code onReplica} when the replica may serve {@code reads} now, else of {@code onPrimary}; counted.
     * A read the replica fails to reach its data for (a data-access or transaction failure) is read again on the
     * primary, and the replica is left alone until its next check.
     */
    public <P, R> R read(Reads reads, P onPrimary, P onReplica, Function<P, R> read) {
        boolean replicaServes = replica != null && current().usable()
                && (reads == Reads.LISTING || caughtUpWithPrimary());
        if (replicaServes) {
            try {
                R answer = read.apply(onReplica);
                toReplica.get(reads).increment();
                return answer;
            } catch (DataAccessException | TransactionException failed) {
                // The replica went away or broke since its last check: the primary answers this read too.
                turnAway("a read on the replica failed: " + failed.getMostSpecificCause().getMessage());
            }
        }
        toPrimary.get(reads).increment();
        return read.apply(onPrimary);
    }

    private synchronized void turnAway(String reason) {
        Health known = health;
        if (known.usable() || !routeLogged) {
            routeLogged = true;
            LOG.log(Level.WARNING, "reads go to the primary: {0}", reason);
        }
        health = new Health(false, known.lagSeconds(), reason, nanoTime.getAsLong());
    }

    /** Whether the last check found the replica fit to serve listings (checking again when that one is old). */
    public boolean replicaInUse() {
        return replica != null && current().usable();
    }

    private Health current() {
        Health known = health;
        if (nanoTime.getAsLong() - known.checkedAt() < intervalNanos()) {
            return known;
        }
        synchronized (this) {
            known = health;
            long now = nanoTime.getAsLong();
            if (now - known.checkedAt() < intervalNanos()) {
                return known;
            }
            Health checked = check(now);
            if (checked.usable() != known.usable() || !routeLogged) {
                routeLogged = true;
                LOG.log(checked.usable() ? Level.INFO : Level.WARNING, checked.usable()
                        ? "reads go to the replica: {0}" : "reads go to the primary: {0}", checked.reason());
            }
            health = checked;
            return checked;
        }
    }

    private Health check(long now) {
        ReplicationStatus status;
        try (Connection connection = replica.getConnection()) {
            status = ReplicationStatus.read(connection, timeoutSeconds());
        } catch (SQLException | RuntimeException unreadable) {
            return new Health(false, Double.NaN, "the replica's status cannot be read: " + unreadable.getMessage(),
                    now);
        }
        double lag = status.lagSeconds().map(Long::doubleValue).orElse(Double.NaN);
        if (status == ReplicationStatus.NOT_A_REPLICA) {
            return new Health(false, lag, "the replica reports no replication", now);
        }
        if (!status.replicating() || status.lagSeconds().isEmpty()) {
            return new Health(false, lag, "replication is stopped or broken (lag unknown)", now);
        }
        if (status.lagSeconds().get() * 1000 > settings.maxLag().toMillis()) {
            return new Health(false, lag, "replication lag " + status.lagSeconds().get() + " s is over "
                    + settings.maxLag().toMillis() + " ms", now);
        }
        return new Health(true, lag, "replication lag " + status.lagSeconds().get() + " s, within "
                + settings.maxLag().toMillis() + " ms", now);
    }

    /**
     * Whether the replica has applied every transaction the primary had committed at this call, waiting at most
     * {@code catch-up-wait}: MariaDB's {@code @@gtid_binlog_pos} read on the primary, then {@code MASTER_GTID_WAIT} on
     * the replica. A server without them (MySQL) answers false, and such reads stay on the primary.
     */
    private boolean caughtUpWithPrimary() {
        try {
            String position;
            try (Connection connection = primary.getConnection(); Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos")) {
                row.next();
                position = row.getString(1);
            }
            try (Connection connection = replica.getConnection();
                 PreparedStatement statement = connection.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
                statement.setQueryTimeout(timeoutSeconds());
                statement.setString(1, position == null ? "" : position);
                statement.setDouble(2, settings.catchUpWait().toMillis() / 1000.0);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() && row.getInt(1) == 0;
                }
            }
        } catch (SQLException | RuntimeException unknown) {
            if (catchUpFailureLogged.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "figures reconciliation acts on are read from the primary: whether the replica"
                        + " caught up cannot be told ({0})", unknown.getMessage());
            }
            return false;
        }
    }

    private long intervalNanos() {
        return settings == null ? Long.MAX_VALUE : settings.checkInterval().toNanos();
    }

    private int timeoutSeconds() {
        return (int) Math.max(1, settings.catchUpWait().plus(settings.checkInterval()).toSeconds() + 1);
    }

    /** One check's finding; {@code lagSeconds} NaN when unknown. */
    private record Health(boolean usable, double lagSeconds, String reason, long checkedAt) {

        static Health none() {
            return new Health(false, Double.NaN, "no replica configured", Long.MAX_VALUE);
        }
    }
}
