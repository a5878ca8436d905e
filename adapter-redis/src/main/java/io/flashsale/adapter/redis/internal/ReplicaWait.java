package io.flashsale.adapter.redis.internal;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * A reserve call followed by {@code WAIT n timeout} on the same connection (ADR 0097). Redis's WAIT waits for the
 * writes of the connection it is sent on, and blocks that connection until it returns: it must follow the script on
 * the connection that ran it, and that connection must not be the shared one, whose other callers would wait behind
 * it. The WAIT is sent once the script answered, so the EVAL a NOSCRIPT answer causes is covered too.
 * <p>
 * After a short WAIT the master's calls skip their WAIT for {@link #RECHECK_AFTER} (counted short too): a master that
 * lost its replica (the replica a failover promoted has none) would otherwise hold every call for the whole timeout.
 */
public final class ReplicaWait {

    private final Function<String, CompletableFuture<RedisClusterAsyncCommands<String, String>>> connectionFor;
    private final int replicas;
    private final long timeoutMillis;
    private final LongAdder confirmed = new LongAdder();
    private final LongAdder fellShort = new LongAdder();
    /** Per master's connection, until when its calls skip WAIT after a short one (System.nanoTime). */
    private final ConcurrentHashMap<Object, Long> shortUntil = new ConcurrentHashMap<>();

    /** How long a master's calls go without WAIT after one of its WAITs returned short. */
    public static final Duration RECHECK_AFTER = Duration.ofSeconds(1);

    /**
     * @param connectionFor the connection (not the shared one) to the master that holds a key, for the call of a
     *                      sale whose first key it is
     */
    public ReplicaWait(Function<String, CompletableFuture<RedisClusterAsyncCommands<String, String>>> connectionFor,
                       int replicas, long timeoutMillis) {
        if (replicas < 1) {
            throw new IllegalArgumentException("a WAIT asks for at least one replica, not " + replicas);
        }
        this.connectionFor = connectionFor;
        this.replicas = replicas;
        this.timeoutMillis = timeoutMillis;
    }

    /** The reserve script's call, answered after its WAIT returned, whatever it counted. */
    public ReserveBatcher.ScriptCall around(LuaScript script) {
        return (keys, args) -> connectionFor.apply(keys[0]).thenCompose(connection ->
                script.<List<Object>>runAsync(connection, ScriptOutputType.MULTI, keys, args)
                        .thenCompose(replies -> {
                            if (recentlyShort(connection)) {
                                fellShort.increment();
                                return CompletableFuture.completedFuture(replies);
                            }
                            return connection.waitForReplication(replicas, timeoutMillis).toCompletableFuture()
                                    .thenApply(acknowledged -> counted(connection, acknowledged, replies));
                        }));
    }

    private boolean recentlyShort(Object connection) {
        Long until = shortUntil.get(connection);
        return until != null && System.nanoTime() - until < 0;
    }

    private List<Object> counted(Object connection, Long acknowledged, List<Object> replies) {
        if (acknowledged != null && acknowledged >= replicas) {
            confirmed.increment();
            shortUntil.remove(connection);
        } else {
            // The reservations stand in the master and its outbox; the durability audit covers them (ADR 0047).
            fellShort.increment();
            shortUntil.put(connection, System.nanoTime() + RECHECK_AFTER.toNanos());
        }
        return replies;
    }

    public long confirmedCalls() {
        return confirmed.sum();
    }

    public long shortCalls() {
        return fellShort.sum();
    }
}
