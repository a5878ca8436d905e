package io.flashsale.bootstrap.api;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import javax.sql.DataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the SQL statements the service executes while it serves HTTP requests (on Tomcat's request threads), at the
 * DataSource every adapter uses: background jobs and other users of the shared server are not counted, and nothing
 * the request path sends the database escapes the count.
 */
final class RequestStatements {

    private static final AtomicLong EXECUTED = new AtomicLong();

    private RequestStatements() {
    }

    static long executed() {
        return EXECUTED.get();
    }

    /** Wraps the service's DataSource. */
    @TestConfiguration(proxyBeanMethods = false)
    static class Counting {

        @Bean
        static BeanPostProcessor countingDataSource() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    return bean instanceof DataSource dataSource && !(bean instanceof CountingDataSource)
                            ? new CountingDataSource(dataSource) : bean;
                }
            };
        }
    }

    private static final class CountingDataSource extends DelegatingDataSource {

        CountingDataSource(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            return counting(super.getConnection());
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return counting(super.getConnection(username, password));
        }
    }

    private static Connection counting(Connection connection) {
        return (Connection) proxy(Connection.class, connection, (target, method, args) -> {
            Object result = invoke(method, target, args);
            return result instanceof Statement statement ? countingStatement(statement) : result;
        });
    }

    private static Statement countingStatement(Statement statement) {
        Class<?> type = statement instanceof CallableStatement ? CallableStatement.class
                : statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
        return (Statement) proxy(type, statement, (target, method, args) -> {
            if (method.getName().startsWith("execute") && servesARequest(Thread.currentThread())) {
                EXECUTED.incrementAndGet();
            }
            return invoke(method, target, args);
        });
    }

    /** Tomcat's request threads: platform ones are {@code http-nio-...}, virtual ones (our default) Boot names so. */
    static boolean servesARequest(Thread thread) {
        return thread.getName().startsWith("http-") || thread.getName().startsWith("tomcat-handler-");
    }

    private interface Call {
        Object on(Object target, Method method, Object[] args) throws Throwable;
    }

    private static Object proxy(Class<?> type, Object target, Call call) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
                return method.invoke(target, args);
            }
            return call.on(target, method, args);
        };
        return Proxy.newProxyInstance(RequestStatements.class.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
