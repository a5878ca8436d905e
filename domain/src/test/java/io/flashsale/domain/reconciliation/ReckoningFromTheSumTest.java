package io.flashsale.domain.reconciliation;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.flashsale.domain.reconciliation.Scenario.FRESH;
import static io.flashsale.domain.reconciliation.Scenario.STALE;
import static io.flashsale.domain.reservation.ReservationStatus.CANCELLED;
import static io.flashsale.domain.reservation.ReservationStatus.FAILED;
import static io.flashsale.domain.reservation.ReservationStatus.ORDERED;
import static io.flashsale.domain.reservation.ReservationStatus.RESERVED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A look that leaves the holdings out is reckoned from the database's sum of purchases and the audited buyers' own,
 * never from every buyer's: the reckoning and the audit must come out exactly as they would with every purchase read,
 * whatever the two stores hold. Seeded random stores, each seed its own repetition.
 */
class ReckoningFromTheSumTest {

    private static final String[] BUYERS = {"ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"};

    @RepeatedTest(300)
    void givenAnyTwoStores_whenTheLookLeftTheHoldingsOut_thenTheSumAloneReckonsAsEveryPurchaseWould(RepetitionInfo run) {
        Random random = new Random(run.getCurrentRepetition());
        Scenario scenario = randomStores(random).holdingsLeftOut();

        assertThat(scenario.reckon()).isEqualTo(scenario.reckonWithEveryPurchase());
        for (int slice = 0; slice < 4; slice++) {
            String[] audited = random.ints(1 + random.nextInt(4), 0, BUYERS.length).distinct()
                    .mapToObj(index -> BUYERS[index]).toArray(String[]::new);
            assertThat(scenario.audit(audited)).as("audit of %s", String.join(",", audited))
                    .isEqualTo(scenario.auditWithEveryPurchase(audited));
        }
    }

    @RepeatedTest(300)
    void givenHoldingsThatAgreeBuyerByBuyer_thenTheirSumAgreesWithTheDatabasesSum_andOneUnitOffDoesNot(
            RepetitionInfo run) {
        Scenario scenario = null;
        for (int attempt = 0; scenario == null; attempt++) {
            scenario = agreeingBuyerByBuyer(randomStores(new Random(10_000L * run.getCurrentRepetition() + attempt)));
        }
        assertThat(scenario.reckon(scenario.lookWithHoldings()).holdingMismatches()).isEmpty();
        long sum = scenario.heldSum();
        scenario.holdingsLeftOut();

        assertThat(scenario.heldFigure(sum).reckon().holdingsToRead()).as("the right sum").isFalse();
        assertThat(scenario.heldFigure(sum + 1).reckon().holdingsToRead()).as("a unit over").isTrue();
        if (sum > 0) {
            assertThat(scenario.heldFigure(sum - 1).reckon().holdingsToRead()).as("a unit short").isTrue();
        }
    }

    @Test
    void givenALookThatReadEveryHolding_whenOnlySomePurchasesWereRead_thenTheReckoningRefusesRatherThanGuess() {
        Scenario scenario = new Scenario().hot(10, 0, 2, 8).holds("ann", 2).recorded(10, 2).purchased("ann", 2);
        RecordedSku some = new RecordedSku(Scenario.SKU, 10, 2, RecordedPurchases.some(2, Set.of(), Map.of()),
                Map.of(), Set.of(), List.of());

        assertThatThrownBy(() -> StockReconciliation.reckon(scenario.lookWithHoldings(), some, Scenario.NOW,
                Scenario.GRACE)).isInstanceOf(IllegalStateException.class);
    }

    /**
     * The stores with every holding set to what the database says, as a look that reads them all judges it; null when
     * the reservations on their way take more from some buyer than the buyer could hold.
     */
    private static Scenario agreeingBuyerByBuyer(Scenario scenario) {
        for (HoldingMismatch mismatch : scenario.reckon(scenario.lookWithHoldings()).holdingMismatches()) {
            long fixed = scenario.held(mismatch.buyerId()) + mismatch.expected() - mismatch.actual();
            if (fixed < 0) {
                return null;
            }
            scenario.holds(mismatch.buyerId().value(), fixed);
        }
        return scenario;
    }

    /** Two stores that may agree or drift anywhere: figures, holdings, and every way a reservation can count. */
    private static Scenario randomStores(Random random) {
        long stock = 20 + random.nextInt(20);
        long sold = random.nextInt(10);
        Scenario scenario = new Scenario().recorded(stock, sold);
        long left = sold;
        for (String buyer : BUYERS) {
            long units = Math.min(left, random.nextInt(3));
            left -= units;
            if (units > 0 || random.nextBoolean()) {
                scenario.purchased(buyer, units);
            }
            long held = Math.max(0, units + random.nextInt(3) - 1);
            if (held > 0) {
                scenario.holds(buyer, held);
            }
        }
        int reservations = random.nextInt(6);
        for (int index = 0; index < reservations; index++) {
            String token = "r" + index;
            String buyer = BUYERS[random.nextInt(BUYERS.length)];
            long units = 1 + random.nextInt(2);
            switch (random.nextInt(7)) {
                case 0 -> scenario.inOutbox(token, buyer, units, random.nextBoolean() ? FRESH : STALE);
                case 1 -> scenario.reservation(token, buyer, RESERVED, units, FRESH);
                case 2 -> scenario.reservation(token, buyer, RESERVED, units, STALE)
                        .order(token, ORDERED, true, random.nextBoolean() ? FRESH : STALE);
                case 3 -> scenario.reservation(token, buyer, RESERVED, units, FRESH).order(token, CANCELLED, false, FRESH);
                case 4 -> scenario.reservation(token, buyer, ORDERED, units, STALE).order(token, CANCELLED, true, FRESH)
                        .restoreOwed(token);
                case 5 -> scenario.cancelledByBuyer(token, buyer, units, random.nextBoolean() ? FRESH : STALE)
                        .order(token, ORDERED, true, STALE);
                default -> scenario.reservation(token, buyer, FAILED, units, FRESH);
            }
        }
        long reserved = random.nextInt(6);
        long hotSold = Math.max(0, sold + random.nextInt(3) - 1);
        scenario.hot(stock, reserved, hotSold, Math.max(0, stock - reserved - hotSold + random.nextInt(3) - 1));
        // The store's sum of holdings: mostly the one that agrees with every purchase, else one unit off either way,
        // so that both sides of the sum's judgement are met.
        long agreeing = agreeingSum(scenario);
        return scenario.heldFigure(Math.max(0, agreeing + (random.nextBoolean() ? 0 : random.nextInt(3) - 1)));
    }

    /** The store's figure of the sum of holdings that every buyer's purchases find right. */
    private static long agreeingSum(Scenario scenario) {
        for (long figure = 0; figure < 100; figure++) {
            if (!scenario.heldFigure(figure).holdingsLeftOut().reckonWithEveryPurchase().holdingsToRead()) {
                return figure;
            }
        }
        return 0;
    }
}
