package io.flashsale.domain.reconciliation;

import org.junit.jupiter.api.Test;

import static io.flashsale.domain.reconciliation.Scenario.FRESH;
import static io.flashsale.domain.reconciliation.Scenario.STALE;
import static io.flashsale.domain.reservation.ReservationStatus.FAILED;
import static io.flashsale.domain.reservation.ReservationStatus.ORDERED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which way a repair moves what the hot store offers (ADR 99): a repair that only restricts it loosens nothing, one
 * that would let it sell more loosens by the most units it gives back on any figure or holding.
 */
class RepairDirectionTest {

    @Test
    void givenAPromotedReplicaThatLostTwentyOrderedUnits_thenTheRepairOnlyRestrictsWhateverItsSize() {
        // MySQL holds 60 units of orders; the replica counted 40 sold and each buyer 10 short.
        SkuReckoning reckoning = new Scenario()
                .hot(100, 0, 40, 60).holds("ann", 20).holds("bob", 20)
                .recorded(100, 60).purchased("ann", 30).purchased("bob", 30)
                .reckon();

        assertThat(reckoning.classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
        assertThat(reckoning.driftUnits()).isEqualTo(20);
        assertThat(reckoning.needsRepair()).isTrue();
        assertThat(reckoning.loosenedUnits()).isZero();
    }

    @Test
    void givenALostReservationStillInFlight_thenCountingItReservedAgainOnlyRestricts() {
        SkuReckoning reckoning = new Scenario()
                .hot(50, 0, 0, 50)
                .inOutbox("r1", "ann", 3, FRESH).holds("ann", 0)
                .recorded(50, 0)
                .reckon();

        assertThat(reckoning.needsRepair()).isTrue();
        assertThat(reckoning.loosenedUnits()).isZero();
    }

    @Test
    void givenRedisCountsTwentyMoreSoldThanMySql_thenTheRepairLoosensByTwenty() {
        SkuReckoning reckoning = new Scenario()
                .hot(100, 0, 60, 40).holds("ann", 30).holds("bob", 30)
                .recorded(100, 40).purchased("ann", 20).purchased("bob", 20)
                .reckon();

        assertThat(reckoning.classification()).isEqualTo(ReconciliationClassification.REDIS_BEHIND);
        assertThat(reckoning.loosenedUnits()).isEqualTo(20);
    }

    @Test
    void givenOnlySoldTooHighWithAvailableRight_thenLoweringSoldStillCountsAsLoosening() {
        // Nothing more would be offered at once, but the ledger would count fewer units taken: not a restriction.
        SkuReckoning reckoning = new Scenario()
                .hot(50, 0, 15, 50)
                .recorded(50, 0)
                .reckon();

        assertThat(reckoning.loosenedUnits()).isEqualTo(15);
    }

    @Test
    void givenLostOrdersAndAFailedReservationStillHoldingUnits_thenMixed_andOnlyTheReleaseLoosens() {
        SkuReckoning reckoning = new Scenario()
                .hot(100, 3, 40, 57).holds("ann", 23).holds("bob", 20)
                .reservation("f1", "ann", FAILED, 3, STALE)
                .recorded(100, 60).purchased("ann", 30).purchased("bob", 30)
                .reckon();

        assertThat(reckoning.driftUnits()).isEqualTo(20);
        assertThat(reckoning.target()).isEqualTo(new LedgerFigures(100, 0, 60, 40));
        assertThat(reckoning.loosenedUnits()).as("3 units leave reserved").isEqualTo(3);
    }

    @Test
    void givenABuyerHoldingMoreThanTheyBought_thenTheRepairLoosensByTheUnitsTakenOffThem() {
        SkuReckoning reckoning = new Scenario()
                .hot(100, 0, 40, 60).holds("ann", 20).holds("bob", 20).holds("cid", 7)
                .recorded(100, 60).purchased("ann", 30).purchased("bob", 30)
                .reckon();

        assertThat(reckoning.loosenedUnits()).isEqualTo(7);
    }

    @Test
    void givenAStoredSumOfHoldingsAboveTheHoldings_thenWritingItLowerLoosens() {
        SkuReckoning reckoning = new Scenario()
                .hot(100, 0, 10, 90).holds("ann", 10).heldFigure(16)
                .recorded(100, 10).purchased("ann", 10)
                .reckon();

        assertThat(reckoning.loosenedUnits()).isEqualTo(6);
    }

    @Test
    void givenAStoredSumOfHoldingsBelowTheHoldings_thenWritingItHigherOnlyRestricts() {
        SkuReckoning reckoning = new Scenario()
                .hot(100, 0, 10, 90).holds("ann", 10).heldFigure(4)
                .recorded(100, 10).purchased("ann", 10)
                .reckon();

        assertThat(reckoning.needsRepair()).isTrue();
        assertThat(reckoning.loosenedUnits()).isZero();
    }

    @Test
    void givenAnOrderedReservationTheDatabaseClosed_thenTheRestoreOnItsWayIsNotCountedAsLoosening() {
        // The restore's units reach available by the hot store's own script; the repair itself moves nothing.
        SkuReckoning reckoning = new Scenario()
                .hot(10, 0, 2, 8).holds("ann", 2)
                .reservation("o1", "ann", ORDERED, 2, STALE).restoreOwed("o1")
                .recorded(10, 0)
                .reckon();

        assertThat(reckoning.needsRepair()).isFalse();
        assertThat(reckoning.loosenedUnits()).isZero();
    }
}
