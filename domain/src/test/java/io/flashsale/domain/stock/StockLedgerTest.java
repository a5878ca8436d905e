package io.flashsale.domain.stock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StockLedgerTest {

    @Test
    void givenNewLedger_thenEverythingIsAvailable() {
        StockLedger ledger = StockLedger.of(10);

        assertThat(ledger).isEqualTo(new StockLedger(10, 0, 0));
        assertThat(ledger.available()).isEqualTo(10);
    }

    @Test
    void availableIsTotalMinusReservedMinusSold() {
        assertThat(new StockLedger(10, 3, 2).available()).isEqualTo(5);
        assertThat(new StockLedger(10, 4, 6).available()).isZero();
    }

    @Test
    void givenNegativeFigures_thenLedgerIsRefused() {
        assertThatThrownBy(() -> new StockLedger(-1, 0, 0)).isInstanceOf(IllegalStockMoveException.class);
        assertThatThrownBy(() -> new StockLedger(5, -1, 0)).isInstanceOf(IllegalStockMoveException.class);
        assertThatThrownBy(() -> new StockLedger(5, 0, -1)).isInstanceOf(IllegalStockMoveException.class);
    }

    @Test
    void givenReservedPlusSoldAboveTotal_thenLedgerIsRefusedSoAvailableIsNeverNegative() {
        assertThatThrownBy(() -> new StockLedger(5, 3, 3))
                .isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("exceeds total");
    }

    @Test
    void givenStockOfTen_whenThreeReserved_thenThreeMoveFromAvailableToReserved() {
        StockLedger before = StockLedger.of(10);

        StockLedger after = before.reserve(3);

        assertThat(after).isEqualTo(new StockLedger(10, 3, 0));
        assertThat(after.available()).isEqualTo(7);
        assertThat(before).isEqualTo(StockLedger.of(10));
    }

    @Test
    void givenStockOfTen_whenTenReserved_thenNothingIsAvailable() {
        assertThat(StockLedger.of(10).reserve(10).available()).isZero();
    }

    @Test
    void givenStockOfTen_whenElevenReserved_thenRefused() {
        assertThatThrownBy(() -> StockLedger.of(10).reserve(11))
                .isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("only 10 available");
    }

    @Test
    void givenSoldUnits_whenReservingMoreThanWhatIsLeft_thenRefused() {
        assertThatThrownBy(() -> new StockLedger(10, 2, 6).reserve(3)).isInstanceOf(IllegalStockMoveException.class);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void givenQuantityNotPositive_thenEveryMoveIsRefused(long quantity) {
        StockLedger ledger = new StockLedger(10, 2, 2);

        assertThatThrownBy(() -> ledger.reserve(quantity)).isInstanceOf(IllegalStockMoveException.class);
        assertThatThrownBy(() -> ledger.confirm(quantity)).isInstanceOf(IllegalStockMoveException.class);
        assertThatThrownBy(() -> ledger.release(quantity)).isInstanceOf(IllegalStockMoveException.class);
        assertThatThrownBy(() -> ledger.restore(quantity)).isInstanceOf(IllegalStockMoveException.class);
    }

    @Test
    void whenConfirming_thenReservedUnitsBecomeSold() {
        assertThat(new StockLedger(10, 3, 1).confirm(2)).isEqualTo(new StockLedger(10, 1, 3));
    }

    @Test
    void whenConfirmingMoreThanReserved_thenRefused() {
        assertThatThrownBy(() -> new StockLedger(10, 2, 5).confirm(3))
                .isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("only 2 reserved");
    }

    @Test
    void whenReleasing_thenReservedUnitsBecomeAvailable() {
        StockLedger after = new StockLedger(10, 3, 1).release(3);

        assertThat(after).isEqualTo(new StockLedger(10, 0, 1));
        assertThat(after.available()).isEqualTo(9);
    }

    @Test
    void whenReleasingMoreThanReserved_thenRefusedEvenIfUnitsAreSold() {
        assertThatThrownBy(() -> new StockLedger(10, 1, 5).release(2)).isInstanceOf(IllegalStockMoveException.class);
    }

    @Test
    void whenRestoring_thenSoldUnitsBecomeAvailable() {
        assertThat(new StockLedger(10, 1, 4).restore(4)).isEqualTo(new StockLedger(10, 1, 0));
    }

    @Test
    void whenRestoringMoreThanSold_thenRefusedEvenIfUnitsAreReserved() {
        assertThatThrownBy(() -> new StockLedger(10, 5, 1).restore(2))
                .isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("only 1 sold");
    }

    @Test
    void whenAdjustingUpOrDown_thenOnlyTheTotalChanges() {
        StockLedger ledger = new StockLedger(10, 2, 3);

        assertThat(ledger.adjust(5)).isEqualTo(new StockLedger(15, 2, 3));
        assertThat(ledger.adjust(-4)).isEqualTo(new StockLedger(6, 2, 3));
        assertThat(ledger.adjust(0)).isEqualTo(ledger);
    }

    @Test
    void whenAdjustingDownToExactlyReservedPlusSold_thenNothingIsAvailable() {
        assertThat(new StockLedger(10, 2, 3).adjust(-5)).isEqualTo(new StockLedger(5, 2, 3));
    }

    @Test
    void whenAdjustingBelowReservedPlusSold_thenRefused() {
        assertThatThrownBy(() -> new StockLedger(10, 2, 3).adjust(-6))
                .isInstanceOf(IllegalStockMoveException.class)
                .hasMessageContaining("below reserved + sold");
        assertThatThrownBy(() -> StockLedger.of(0).adjust(-1)).isInstanceOf(IllegalStockMoveException.class);
    }

    @Test
    void givenRandomMoves_thenAvailableIsNeverNegative() {
        long seed = 20261129L;
        Random random = new Random(seed);
        StockLedger ledger = StockLedger.of(20);
        for (int step = 0; step < 5_000; step++) {
            long quantity = random.nextInt(12) - 1;
            try {
                ledger = switch (random.nextInt(5)) {
                    case 0 -> ledger.reserve(quantity);
                    case 1 -> ledger.confirm(quantity);
                    case 2 -> ledger.release(quantity);
                    case 3 -> ledger.restore(quantity);
                    default -> ledger.adjust(quantity - 5);
                };
            } catch (IllegalStockMoveException refused) {
                // a refused move leaves the ledger as it was; the loop goes on from there
            }
            assertThat(ledger.available()).as("seed %d step %d: %s", seed, step, ledger).isNotNegative();
            assertThat(ledger.reserved() + ledger.sold()).isLessThanOrEqualTo(ledger.total());
        }
    }
}
