package io.flashsale.adapter.redis;

import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The ports this adapter hands out answer a Redis that does not answer with {@link StoreUnavailableException}, which
 * the application and the HTTP API know (503 {@code UNAVAILABLE}, or {@code DEGRADED} on the reservation path), instead
 * of Lettuce's exceptions, which they must not see: a connection refused or reset, commands rejected while
 * disconnected, a command timeout, a server still loading its data or busy with a script. An error Redis answered (a
 * script's refusal, a wrong type) stays what it is. One proxy over every port interface of the adapter, or over the
 * one role asked for, so a new method cannot forget it.
 */
final class HotStoreOutages {

    private HotStoreOutages() {
    }

    static <T> T translating(T adapter) {
        Set<Class<?>> ports = new LinkedHashSet<>();
        for (Class<?> type = adapter.getClass(); type != null; type = type.getSuperclass()) {
            ports.addAll(Set.of(type.getInterfaces()));
        }
        return proxy(adapter, ports.toArray(Class<?>[]::new));
    }

    /** One role of an adapter that plays several, on its own: its other ports are handed out as ports of their own. */
    static <T> T translating(Class<T> port, T adapter) {
        return proxy(adapter, new Class<?>[] {port});
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Object adapter, Class<?>[] ports) {
        return (T) Proxy.newProxyInstance(adapter.getClass().getClassLoader(), ports,
                (proxy, method, args) -> {
                    try {
                        return method.invoke(adapter, args);
                    } catch (InvocationTargetException failed) {
                        Throwable cause = failed.getCause();
                        if (isOutage(cause)) {
                            throw new StoreUnavailableException("the hot store did not answer: " + cause.getMessage(),
                                    cause);
                        }
                        throw cause;
                    }
                });
    }

    /** Redis out of reach for now, as opposed to an answer it gave. */
    static boolean isOutage(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof RedisConnectionException || cause instanceof RedisCommandTimeoutException
                    || cause instanceof RedisLoadingException || cause instanceof RedisBusyException
                    // Plain RedisException: commands rejected while disconnected, a connection closed or reset.
                    || cause.getClass() == RedisException.class) {
                return true;
            }
        }
        return false;
    }
}
