package io.flashsale.chaos.schedule;

/** What a fault does to the system, and whether it may lose acknowledged work by the documented design. */
public enum FaultKind {
    /** SIGKILL of Redis, restarted on its AOF ({@code everysec}): the last second of writes may be lost. */
    REDIS_KILL(true),
    /** SIGSTOP, then SIGCONT: Redis freezes, every client times out, nothing is lost. */
    REDIS_PAUSE(false),
    /** SIGKILL of Redis and a start on an empty data directory: everything not yet in MySQL is lost. */
    REDIS_WIPE(true),
    BROKER_KILL(false),
    BROKER_PAUSE(false),
    /** SIGKILL of one service instance; it is started again once the schedule's faults are over. */
    SERVICE_KILL(false),
    SERVICE_PAUSE(false),
    /** Every connection from the service to MariaDB reset, new ones refused for the fault's duration. */
    DB_CUT(false),
    DB_DELAY(false),
    DB_BLACK_HOLE(false),
    REDIS_LINK_CUT(false),
    REDIS_LINK_DELAY(false),
    REDIS_LINK_BLACK_HOLE(false),
    /**
     * On a Redis Cluster with a replica per master: SIGKILL of the master that serves the sale's slot, its replica's
     * takeover, the killed node started again as a replica. Replication is asynchronous: what the replica had not
     * received when the master died is lost.
     */
    MASTER_FAILOVER(true);

    private final boolean mayLoseAcknowledged;

    FaultKind(boolean mayLoseAcknowledged) {
        this.mayLoseAcknowledged = mayLoseAcknowledged;
    }

    /** True when the mode in use documents a loss window for this fault (Redis persistence, not a bug). */
    public boolean mayLoseAcknowledged() {
        return mayLoseAcknowledged;
    }
}
