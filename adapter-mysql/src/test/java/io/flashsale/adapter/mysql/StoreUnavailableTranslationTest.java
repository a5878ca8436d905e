package io.flashsale.adapter.mysql;

import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import com.mysql.cj.jdbc.exceptions.CommunicationsException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import java.net.SocketException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class StoreUnavailableTranslationTest {

    @Test
    void givenTheWaysADatabaseIsOutOfReach_whenClassified_thenEachIsAnUnavailability() {
        assertThat(StoreUnavailableTranslation.isUnavailability(new RecoverableDataAccessException("reset",
                new SQLRecoverableException("Communications link failure")))).isTrue();
        assertThat(StoreUnavailableTranslation.isUnavailability(new CannotGetJdbcConnectionException("no connection",
                new SQLTransientConnectionException("request timed out after 2000ms")))).isTrue();
        assertThat(StoreUnavailableTranslation.isUnavailability(new CannotCreateTransactionException(
                "Could not open JDBC Connection for transaction", new SQLTransientConnectionException("timed out"))))
                .isTrue();
        assertThat(StoreUnavailableTranslation.isUnavailability(new QueryTimeoutException("statement timed out")))
                .isTrue();
        assertThat(StoreUnavailableTranslation.isUnavailability(new TransientDataAccessResourceException("busy")))
                .isTrue();
        assertThat(StoreUnavailableTranslation.isUnavailability(new IllegalStateException("wrapped",
                new SQLTransientConnectionException("timed out")))).isTrue();
    }

    /** Lock contention is its own failure (ADR 53): the database answered, so it is no outage. */
    @Test
    void givenLockContention_whenClassified_thenItIsContentionAndNoUnavailability() {
        assertThat(StoreUnavailableTranslation.isLockContention(new CannotAcquireLockException("lock wait timeout",
                new SQLTransactionRollbackException("Lock wait timeout exceeded")))).isTrue();
        assertThat(StoreUnavailableTranslation.isLockContention(new IllegalStateException("wrapped",
                new SQLTransactionRollbackException("Deadlock found")))).isTrue();
        assertThat(StoreUnavailableTranslation.isLockContention(new RecoverableDataAccessException("reset",
                new SQLRecoverableException("Communications link failure")))).isFalse();
        assertThat(StoreUnavailableTranslation.isUnavailability(new CannotAcquireLockException("lock wait timeout",
                new SQLTransactionRollbackException("Lock wait timeout exceeded")))).isFalse();
        assertThat(StoreUnavailableTranslation.isUnavailability(new PessimisticLockingFailureException("deadlock",
                new SQLTransactionRollbackException("Deadlock found when trying to get lock")))).isFalse();
        assertThat(StoreUnavailableTranslation.isUnavailability(new IllegalStateException("wrapped",
                new SQLTransactionRollbackException("Deadlock found")))).isFalse();
    }

    @Test
    void givenFailuresThatAreBugsOrDecisions_whenClassified_thenNoneIsAnUnavailability() {
        assertThat(StoreUnavailableTranslation.isUnavailability(new DuplicateKeyException("duplicate"))).isFalse();
        assertThat(StoreUnavailableTranslation.isUnavailability(new DataIntegrityViolationException("constraint")))
                .isFalse();
        assertThat(StoreUnavailableTranslation.isUnavailability(new BadSqlGrammarException("select", "SELEC 1",
                new SQLSyntaxErrorException("syntax")))).isFalse();
        assertThat(StoreUnavailableTranslation.isUnavailability(new IllegalStateException("a bug",
                new SQLException("generic")))).isFalse();
    }

    /**
     * Defect 13: the database path's statement lost the connection, Hikari swapped the connection for its closed
     * stand-in, and the rollback on it failed. TransactionTemplate then throws the transaction manager's
     * {@code TransactionSystemException: JDBC rollback failed} and keeps the statement's failure aside.
     */
    @Test
    void givenARollbackThatFailedOnTheConnectionTheStatementLost_whenClassified_thenItIsAnUnavailability()
            throws Exception {
        SQLException closedByThePool = hikariClosedConnectionRollback();
        assertThat(closedByThePool.getSQLState()).as("Hikari's closed connection names no SQLState").isNull();

        TransactionSystemException rollbackFailed = new TransactionSystemException("JDBC rollback failed",
                closedByThePool);
        assertThat(StoreUnavailableTranslation.isUnavailability(rollbackFailed))
                .as("the rollback's own failure, a connection the pool closed").isTrue();

        TransactionSystemException afterTheStatement = new TransactionSystemException("JDBC rollback failed",
                new SQLException("a failure of no known kind"));
        afterTheStatement.initApplicationException(new RecoverableDataAccessException("select failed",
                new CommunicationsException("Communications link failure", new SocketException("Connection reset"))));
        assertThat(StoreUnavailableTranslation.isUnavailability(afterTheStatement))
                .as("the statement's failure, kept aside by TransactionTemplate").isTrue();

        assertThat(StoreUnavailableTranslation.isUnavailability(new TransactionSystemException("JDBC rollback failed",
                new SQLNonTransientConnectionException("No operations allowed after connection closed.", "08003"))))
                .as("the driver's own closed connection").isTrue();
        assertThat(StoreUnavailableTranslation.isUnavailability(new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed", "08003")))).as("SQLState class 08 on a bare SQLException")
                .isTrue();
        assertThat(StoreUnavailableTranslation.isUnavailability(new TransactionSystemException("JDBC commit failed",
                new DataAccessResourceFailureException("link", new SQLException("reset", "08S01"))))).isTrue();
    }

    @Test
    void givenARollbackThatFailedForAnotherReason_whenClassified_thenItIsNoUnavailability() {
        TransactionSystemException rollbackFailed = new TransactionSystemException("JDBC rollback failed",
                new SQLException("a failure of no known kind", "HY000"));
        rollbackFailed.initApplicationException(new DataIntegrityViolationException("constraint"));

        assertThat(StoreUnavailableTranslation.isUnavailability(rollbackFailed)).isFalse();
        assertThat(StoreUnavailableTranslation.isUnavailability(new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed")))).as("the message alone tells nothing").isFalse();
    }

    /** The exception HikariCP's closed stand-in for a broken connection really throws (reached by reflection). */
    private static SQLException hikariClosedConnectionRollback() throws Exception {
        var field = Class.forName("com.zaxxer.hikari.pool.ProxyConnection$ClosedConnection")
                .getDeclaredField("CLOSED_CONNECTION");
        field.setAccessible(true);
        Connection closed = (Connection) field.get(null);
        return catchThrowableOfType(SQLException.class, closed::rollback);
    }
}
