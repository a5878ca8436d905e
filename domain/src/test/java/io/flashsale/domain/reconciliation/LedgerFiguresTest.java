package io.flashsale.domain.reconciliation;

import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LedgerFiguresTest {

    @Test
    void givenALedger_thenItsFiguresAreConsistentAndTurnBackIntoIt() {
        LedgerFigures figures = LedgerFigures.of(new StockLedger(10, 2, 3));

        assertThat(figures).isEqualTo(new LedgerFigures(10, 2, 3, 5));
        assertThat(figures.isConsistent()).isTrue();
        assertThat(figures.toLedger()).isEqualTo(new StockLedger(10, 2, 3));
    }

    @Test
    void givenDamagedFigures_thenTheyAreInconsistentAndNoLedger() {
        assertThat(new LedgerFigures(10, 0, 3, 8).isConsistent()).isFalse();
        assertThat(new LedgerFigures(2, -1, 3, 0).isConsistent()).isFalse();
        assertThatThrownBy(() -> new LedgerFigures(10, 0, 3, 8).toLedger()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void givenTwoSides_thenTheDifferenceAndItsLargestFigureIgnoreSigns() {
        LedgerFigures drift = new LedgerFigures(10, 0, 2, 8).minus(new LedgerFigures(10, 1, 5, 4));

        assertThat(drift).isEqualTo(new LedgerFigures(0, -1, -3, 4));
        assertThat(drift.largest()).isEqualTo(4);
        assertThat(LedgerFigures.ZERO.isZero()).isTrue();
    }
}
