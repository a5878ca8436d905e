package io.flashsale.adapter.mysql;

import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.framework.AbstractAdvisingBeanPostProcessor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.util.ClassUtils;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientException;
import java.util.Arrays;

/**
 * Every out-port this adapter implements answers a database that does not answer with
 * {@link StoreUnavailableException}, which the application and the HTTP API know (503 {@code UNAVAILABLE}), instead of
 * Spring's data-access exceptions, which they must not see: a lost or refused connection, no connection within the
 * pool's wait, a statement that timed out, a transaction that could not begin, a rollback that failed on the lost
 * connection (nothing was committed). Lock contention (a deadlock, a lock
 * wait that timed out) is told apart as {@link StoreContentionException}: the database answered, and the change met
 * another one (ADR 53). Anything else (a bad statement, a broken constraint the code does not expect) stays what it
 * is: a bug, not an outage.
 * <p>
 * One advisor on the adapter's beans rather than a try/catch in each method: a new method of a port cannot forget it.
 * Class proxies, so the beans keep their own types for the adapter's wiring.
 */
final class StoreUnavailableTranslation extends AbstractAdvisingBeanPostProcessor {

    private static final String APPLICATION = "io.flashsale.application.";

    /** Where HikariCP's stand-in for a connection it found broken throws from. */
    private static final String HIKARI_CLOSED_CONNECTION = "com.zaxxer.hikari.pool.ProxyConnection$ClosedConnection";

    StoreUnavailableTranslation() {
        setProxyTargetClass(true);
        this.advisor = new DefaultPointcutAdvisor(new ComposablePointcut(portsOfThisAdapter()), new Translate());
    }

    /**
     * The adapter's classes that implement an application out-port (not its DAOs, mappers or configuration). Out-ports
     * live in each capability's {@code port.out} package (ADR 95), so any of those counts.
     */
    private static ClassFilter portsOfThisAdapter() {
        String adapter = StoreUnavailableTranslation.class.getPackageName();
        return type -> type.getPackageName().equals(adapter) && Arrays.stream(ClassUtils.getAllInterfacesForClass(type))
                .anyMatch(StoreUnavailableTranslation::isOutPort);
    }

    static boolean isOutPort(Class<?> type) {
        String name = type.getPackageName();
        return name.startsWith(APPLICATION) && name.endsWith(".port.out");
    }

    /**
     * Whether this failure says the database is out of reach for now, rather than that the code is wrong. Lock
     * contention (a deadlock, a lock wait that timed out) is not: the database answered ({@link #isLockContention}).
     */
    static boolean isUnavailability(Throwable failure) {
        if (isLockContention(failure)) {
            return false;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TransientDataAccessException || cause instanceof RecoverableDataAccessException
                    || cause instanceof DataAccessResourceFailureException
                    || cause instanceof CannotCreateTransactionException
                    || cause instanceof SQLTransientException || cause instanceof SQLRecoverableException
                    || cause instanceof SQLNonTransientConnectionException
                    || cause instanceof SQLException sql && (isConnectionException(sql) || isClosedByThePool(sql))) {
                return true;
            }
            // A rollback (or commit) that failed after the transaction's own statement failed: Spring's
            // TransactionTemplate throws the transaction manager's failure and keeps the statement's aside. A
            // statement that lost the connection is the outage whatever the rollback then met (defect 13).
            if (cause instanceof TransactionSystemException transaction && transaction.getApplicationException() != null
                    && transaction.getApplicationException() != failure
                    && isUnavailability(transaction.getApplicationException())) {
                return true;
            }
            if (cause.getCause() == cause) {
                return false;
            }
        }
        return false;
    }

    /** SQLState class 08, "connection exception", whatever subclass of SQLException the driver or pool chose. */
    private static boolean isConnectionException(SQLException failure) {
        String state = failure.getSQLState();
        return state != null && state.startsWith("08");
    }

    /**
     * HikariCP marks a connection broken when a statement on it fails with a connection exception and swaps it for a
     * closed one, whose every call (the transaction's rollback among them) throws a bare {@link SQLException} with no
     * SQLState: it is told by where it was thrown, not by its message.
     */
    private static boolean isClosedByThePool(SQLException failure) {
        StackTraceElement[] frames = failure.getStackTrace();
        return frames.length > 0 && frames[0].getClassName().equals(HIKARI_CLOSED_CONNECTION);
    }

    /**
     * A deadlock or a lock wait that timed out: the transaction was rolled back whole and a retry may pass. The order
     * pipeline retries its batch on it as on any failure; the HTTP API answers 503 {@code BUSY} (ADR 53).
     */
    static boolean isLockContention(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConcurrencyFailureException || cause instanceof SQLTransactionRollbackException) {
                return true;
            }
            if (cause.getCause() == cause) {
                return false;
            }
        }
        return false;
    }

    private static final class Translate implements MethodInterceptor {

        @Override
        public Object invoke(MethodInvocation invocation) throws Throwable {
            try {
                return invocation.proceed();
            } catch (StoreUnavailableException alreadyTranslated) {
                throw alreadyTranslated;
            } catch (StoreContentionException alreadyTranslated) {
                throw alreadyTranslated;
            } catch (RuntimeException failure) {
                if (isLockContention(failure)) {
                    throw new StoreContentionException("the database refused the change for now (lock contention): "
                            + failure.getMessage(), failure);
                }
                if (isUnavailability(failure)) {
                    throw new StoreUnavailableException("the database did not answer: " + failure.getMessage(),
                            failure);
                }
                throw failure;
            }
        }
    }
}
