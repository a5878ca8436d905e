package io.flashsale.adapter.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The commands of a service that started while Redis was down: each call first makes sure a connection exists,
 * connecting at most once per {@code retryEvery} (calls in between fail at once, as calls on a dropped connection do),
 * and once connected hands every call to it; from then on Lettuce reconnects by itself. A service that reached Redis at
 * start never sees this class.
 */
final class LazyConnection implements InvocationHandler {

    /** What one successful attempt made. */
    record Connected(StatefulConnection<String, String> connection, RedisClusterCommands<String, String> commands,
                     RedisClusterAsyncCommands<String, String> asyncCommands,
                     StatefulRedisPubSubConnection<String, String> subscription) {
    }

    private final Supplier<Connected> connect;
    private final Consumer<Connected> onConnected;
    private final long retryEveryNanos;
    private volatile Connected connected;
    private long nextAttempt = System.nanoTime();

    private LazyConnection(Supplier<Connected> connect, Consumer<Connected> onConnected, Duration retryEvery) {
        this.connect = connect;
        this.onConnected = onConnected;
        this.retryEveryNanos = retryEvery.toNanos();
    }

    @SuppressWarnings("unchecked")
    static RedisClusterCommands<String, String> commands(LazyConnection lazy) {
        return (RedisClusterCommands<String, String>) Proxy.newProxyInstance(LazyConnection.class.getClassLoader(),
                new Class<?>[]{RedisClusterCommands.class}, lazy);
    }

    /** The asynchronous commands, connecting first in the same way; a call that cannot connect throws at once. */
    @SuppressWarnings("unchecked")
    static RedisClusterAsyncCommands<String, String> asyncCommands(LazyConnection lazy) {
        return (RedisClusterAsyncCommands<String, String>) Proxy.newProxyInstance(
                LazyConnection.class.getClassLoader(), new Class<?>[]{RedisClusterAsyncCommands.class}, lazy);
    }

    static LazyConnection of(Supplier<Connected> connect, Consumer<Connected> onConnected, Duration retryEvery) {
        return new LazyConnection(connect, onConnected, retryEvery);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "LazyConnection[" + (connected == null ? "not connected" : "connected") + "]";
            };
        }
        Connected now = connected();
        Object commands = method.getDeclaringClass().isInstance(now.commands()) ? now.commands() : now.asyncCommands();
        try {
            return method.invoke(commands, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    Connected connected() {
        Connected now = connected;
        return now != null ? now : connect();
    }

    private synchronized Connected connect() {
        if (connected != null) {
            return connected;
        }
        if (System.nanoTime() - nextAttempt < 0) {
            throw new RedisConnectionException("Redis has not been reached since the service started");
        }
        nextAttempt = System.nanoTime() + retryEveryNanos;
        Connected made = connect.get();
        onConnected.accept(made);
        connected = made;
        return made;
    }

    /** The connection, if one was ever made. */
    Connected current() {
        return connected;
    }
}
