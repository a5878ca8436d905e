package io.flashsale.domain.slice;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StockTransferTest {

    private static final Instant AT = Instant.parse("2026-11-11T00:00:00Z");

    private static StockTransfer requested(long units) {
        return StockTransfer.requested(7, new ActivityId("a"), new SkuId("s"), 0, 2, units, AT);
    }

    @Test
    void aTransferIsRequestedThenTakenThenDone() {
        StockTransfer taken = requested(10).taken(6);
        assertThat(taken.state()).isEqualTo(TransferState.TAKEN);
        assertThat(taken.moved()).isEqualTo(6);
        assertThat(taken.finished()).isFalse();

        StockTransfer done = taken.done();
        assertThat(done.state()).isEqualTo(TransferState.DONE);
        assertThat(done.moved()).isEqualTo(6);
        assertThat(done.finished()).isTrue();
    }

    @Test
    void givenTheSourceGaveNothing_thenTheTransferIsDoneAtOnce() {
        assertThat(requested(10).taken(0).state()).isEqualTo(TransferState.DONE);
    }

    @Test
    void theSourceNeverGivesMoreThanAsked() {
        assertThatThrownBy(() -> requested(10).taken(11)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> requested(10).taken(-1)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void stepsAreTakenInOrderOnly() {
        assertThatThrownBy(() -> requested(10).done()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> requested(10).taken(3).taken(3)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> requested(10).taken(3).done().done()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTransferMovesAtLeastOneUnitBetweenTwoSlices() {
        assertThatThrownBy(() -> StockTransfer.requested(1, new ActivityId("a"), new SkuId("s"), 1, 1, 5, AT))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("to");
        assertThatThrownBy(() -> requested(0)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> StockTransfer.requested(1, new ActivityId("a"), new SkuId("s"), 0, 64, 5, AT))
                .isInstanceOf(InvalidValueException.class);
    }

    @Test
    void aRequestedTransferHasMovedNothing() {
        assertThatThrownBy(() -> new StockTransfer(1, new ActivityId("a"), new SkuId("s"), 0, 1, 5,
                TransferState.REQUESTED, 2, AT)).isInstanceOf(IllegalArgumentException.class);
    }
}
