package io.flashsale.adapter.mysql;

import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StoreContentionException;
import io.flashsale.application.port.out.StoreUnavailableException;
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
import org.springframework.util.ClassUtils;

import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientException;
import java.util.Arrays;

/**
 * Every out-port this adapter implements answers a database that does not answer with
 * {@link StoreUnavailableException}, which the application and the HTTP API know (503 {@code UNAVAILABLE}), instead of
 * Spring's data-access exceptions, which they must not see: a lost or refused connection, no connection within the
 * pool's wait, a statement that timed out, a transaction that could not begin. Lock contention (a deadlock, a lock
 * wait that timed out) is told apart as {@link StoreContentionException}: the database answered, and the change met
 * another one (ADR 53). Anything else (a bad statement, a broken constraint the code does not expect) stays what it
 * is: a bug, not an outage.
 * <p>
 * One advisor on the adapter's beans rather than a try/catch in each method: a new method of a port cannot forget it.
 * Class proxies, so the beans keep their own types for the adapter's wiring.
 */
final class StoreUnavailableTranslation extends AbstractAdvisingBeanPostProcessor {

    StoreUnavailableTranslation() {
        setProxyTargetClass(true);
        this.advisor = new DefaultPointcutAdvisor(new ComposablePointcut(portsOfThisAdapter()), new Translate());
    }

    /** The adapter's classes that implement an application out-port (not its DAOs, mappers or configuration). */
    private static ClassFilter portsOfThisAdapter() {
        String adapter = StoreUnavailableTranslation.class.getPackageName();
        String ports = OrderRepository.class.getPackageName();
        return type -> type.getPackageName().equals(adapter) && Arrays.stream(ClassUtils.getAllInterfacesForClass(type))
                .anyMatch(port -> port.getPackageName().equals(ports));
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
                    || cause instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (cause.getCause() == cause) {
                return false;
            }
        }
        return false;
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
