package io.flashsale.bootstrap.pipeline;

import org.apache.ibatis.cache.CacheKey;
import org.apache.ibatis.executor.Executor;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.plugin.Interceptor;
import org.apache.ibatis.plugin.Intercepts;
import org.apache.ibatis.plugin.Invocation;
import org.apache.ibatis.plugin.Signature;
import org.apache.ibatis.session.ResultHandler;
import org.apache.ibatis.session.RowBounds;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the queries MyBatis sends to MariaDB for one activity's row ({@code ActivityDao.selectActivity}), per
 * activity id, and every query sent from a request thread: what the reservation path costs the database. A MyBatis
 * plugin, registered as a bean, which Boot's MyBatis auto-configuration adds to the session factory.
 */
@Intercepts({
        @Signature(type = Executor.class, method = "query",
                args = {MappedStatement.class, Object.class, RowBounds.class, ResultHandler.class}),
        @Signature(type = Executor.class, method = "query",
                args = {MappedStatement.class, Object.class, RowBounds.class, ResultHandler.class, CacheKey.class,
                        BoundSql.class})})
public class ActivityQueryCounter implements Interceptor {

    private final Map<String, AtomicLong> activityRowQueries = new ConcurrentHashMap<>();
    private final AtomicLong requestThreadQueries = new AtomicLong();

    @Override
    public Object intercept(Invocation invocation) throws Throwable {
        MappedStatement statement = (MappedStatement) invocation.getArgs()[0];
        if (statement.getId().endsWith("ActivityDao.selectActivity")
                && invocation.getArgs()[1] instanceof Map<?, ?> parameters && parameters.get("id") instanceof String id) {
            activityRowQueries.computeIfAbsent(id, any -> new AtomicLong()).incrementAndGet();
        }
        // Tomcat's request threads: platform ones are http-nio-..., virtual ones (the default here) tomcat-handler-...
        String thread = Thread.currentThread().getName();
        if (thread.startsWith("http-") || thread.startsWith("tomcat-handler-")) {
            requestThreadQueries.incrementAndGet();
        }
        return invocation.proceed();
    }

    long activityRowQueries(String activityId) {
        AtomicLong count = activityRowQueries.get(activityId);
        return count == null ? 0 : count.get();
    }

    long requestThreadQueries() {
        return requestThreadQueries.get();
    }
}
