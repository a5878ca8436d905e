package io.flashsale.adapter.redis.internal;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * A reserve call followed by {@code WAIT n timeout} on the same connection (ADR 0097). Redis's WAIT waits for the
 * writes of the connection it is sent on, and blocks that connection until it returns: it must follow the script on
 * the connection that ran it, and that connection must not be the shared one, whose other callers would wait behind
 * it. The WAIT is sent once the script answered, so the EVAL a NOSCRIPT answer causes is covered too.
 */
public final class ReplicaWait {

    private final Function<String, CompletableFuture<RedisClusterAsyncCommands<String, String>>> connectionFor;
    private final int replicas;
    private final long timeoutMillis;
    private final LongAdder confirmed = new LongAdder();
    private final LongAdder fellShort = new LongAdder();

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
                        .thenCompose(replies -> connection.waitForReplication(replicas, timeoutMillis)
                                .toCompletableFuture()
                                .thenApply(acknowledged -> counted(acknowledged, replies))));
    }

    private List<Object> counted(Long acknowledged, List<Object> replies) {
        // Short: the reservations stand in the master and its outbox; the durability audit covers them (ADR 0047).
        (acknowledged != null && acknowledged >= replicas ? confirmed : fellShort).increment();
        return replies;
    }

    public long confirmedCalls() {
        return confirmed.sum();
    }

    public long shortCalls() {
        return fellShort.sum();
    }
}
