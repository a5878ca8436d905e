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
import org.springframework.transaction.CannotCreateTransactionException;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;

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
}
