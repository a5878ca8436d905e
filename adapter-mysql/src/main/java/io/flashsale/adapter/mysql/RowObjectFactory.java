package io.flashsale.adapter.mysql;

import org.apache.ibatis.reflection.ReflectionException;
import org.apache.ibatis.reflection.factory.DefaultObjectFactory;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds this adapter's row records through their constructors, made accessible once per record and argument list.
 * MyBatis' own factory looks the constructor up for every row and, the rows being package-private, throws and catches an
 * {@code IllegalAccessException} before it retries with access: thousands of exceptions a second in a drain
 * (docs/order-pipeline.md, 2026-12-03). Anything that is not a record built with arguments is left to it.
 */
final class RowObjectFactory extends DefaultObjectFactory {

    private record Signature(Class<?> type, List<Class<?>> arguments) {
    }

    private final Map<Signature, Constructor<?>> constructors = new ConcurrentHashMap<>();

    @Override
    public <T> T create(Class<T> type, List<Class<?>> constructorArgTypes, List<Object> constructorArgs) {
        if (!type.isRecord() || constructorArgTypes == null || constructorArgs == null) {
            return super.create(type, constructorArgTypes, constructorArgs);
        }
        Constructor<?> constructor = constructors.computeIfAbsent(
                new Signature(type, List.copyOf(constructorArgTypes)), RowObjectFactory::accessible);
        try {
            return type.cast(constructor.newInstance(constructorArgs.toArray()));
        } catch (InstantiationException | IllegalAccessException | IllegalArgumentException
                 | InvocationTargetException failed) {
            throw new ReflectionException("Error instantiating " + type + " with values " + constructorArgs
                    + ". Cause: " + failed, failed);
        }
    }

    private static Constructor<?> accessible(Signature signature) {
        try {
            Constructor<?> constructor = signature.type().getDeclaredConstructor(
                    signature.arguments().toArray(Class<?>[]::new));
            constructor.setAccessible(true);
            return constructor;
        } catch (NoSuchMethodException missing) {
            throw new ReflectionException("No constructor of " + signature.type() + " takes "
                    + signature.arguments(), missing);
        }
    }
}
