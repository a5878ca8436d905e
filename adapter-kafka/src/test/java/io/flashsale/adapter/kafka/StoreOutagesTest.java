package io.flashsale.adapter.kafka;

import io.flashsale.application.order.model.OrderBatchFailedException;
import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.ListenerExecutionFailedException;

import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;

/** The Kafka adapter takes the store adapters' verdict, wherever it sits in the chain, and guesses nothing itself. */
class StoreOutagesTest {

    @Test
    void givenTheStoreAdaptersVerdict_whenAnywhereInTheChain_thenItIsAnOutage() {
        var unavailable = new StoreUnavailableException("the database did not answer",
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available"));
        var contention = new StoreContentionException("lock wait timeout", new IllegalStateException("deadlock"));

        assertThat(StoreOutages.isIn(unavailable)).isTrue();
        assertThat(StoreOutages.isIn(contention)).isTrue();
        assertThat(StoreOutages.isIn(new ListenerExecutionFailedException("listener failed",
                new StoresUnavailableBatchException(unavailable)))).isTrue();
        assertThat(StoreOutages.isIn(new OrderBatchFailedException(3, contention))).isTrue();
    }

    @Test
    void givenFailuresTheStoreAdaptersDidNotCallAnOutage_whenClassified_thenNoneIs() {
        // A pool timeout the adapter did not translate is not guessed at here: its edge decides.
        assertThat(StoreOutages.isIn(new IllegalStateException("wrapped",
                new SQLTransientConnectionException("timed out")))).isFalse();
        assertThat(StoreOutages.isIn(new IllegalStateException("poison: a constraint"))).isFalse();
        assertThat(StoreOutages.isIn(new MalformedReservationMessageException("unreadable"))).isFalse();
        assertThat(StoreOutages.isIn(new OrderBatchFailedException(0, new IllegalArgumentException("bug")))).isFalse();
    }
}
