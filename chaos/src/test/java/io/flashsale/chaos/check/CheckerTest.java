package io.flashsale.chaos.check;

import io.flashsale.chaos.history.Entry;
import io.flashsale.chaos.history.History;
import io.flashsale.chaos.schedule.SaleShape;
import io.flashsale.chaos.schedule.Schedule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker on hand-made histories: one request whose order stands under its first reservation, answered (or not)
 * with it and with a second one from another instance, which MySQL records as an alias of the order, or does not.
 */
class CheckerTest {

    private static final String FIRST = "sale.first";
    private static final String SECOND = "sale.second";
    private static final Schedule SCHEDULE = new Schedule(1, new SaleShape(1, 60,
            List.of(new SaleShape.Sku("sku-0", 10, 1, 0))), 1, List.of(), List.of(), 1_000);
    private static final Map<String, HotLedger> REDIS = Map.of("sku-0", new HotLedger(10, 9, 0, 1));

    @Test
    void givenTheFirstAnswerLostAndTheSecondIdAnAliasOfTheRequestsOrder_thenNothingIsLost() {
        History history = history(lost(1, 0), answer(2, 1, SECOND));

        assertThat(new Checker().check(SCHEDULE, history, REDIS, books(Map.of(SECOND, FIRST))).violations()).isEmpty();
    }

    @Test
    void givenBothIdsAnsweredAndTheSecondAnAliasOfTheFirst_thenItIsOneOrderNotADoubleOne() {
        History history = history(answer(1, 0, FIRST), answer(2, 1, SECOND));

        Checker.Verdict verdict = new Checker().check(SCHEDULE, history, REDIS, books(Map.of(SECOND, FIRST)));

        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.answeredAnewInWindow()).isZero();
    }

    @Test
    void givenNoAlias_whenTheSecondIdIsNoOrder_thenItIsStillLostAndTheRequestDoublyAnswered() {
        History history = history(answer(1, 0, FIRST), answer(2, 1, SECOND));

        List<Violation> violations = new Checker().check(SCHEDULE, history, REDIS, books(Map.of())).violations();

        assertThat(violations).extracting(Violation::invariant)
                .containsExactlyInAnyOrder(Violation.Invariant.DOUBLE_ORDER, Violation.Invariant.LOST_RESERVATION);
    }

    @Test
    void givenAnAliasOfAnOrderOfAnotherRequest_thenTheSecondIdIsStillLost() {
        History history = history(lost(1, 0), answer(2, 1, SECOND));

        List<Violation> violations = new Checker().check(SCHEDULE, history, REDIS, books(Map.of(SECOND, "sale.other")))
                .violations();

        assertThat(violations).extracting(Violation::invariant).containsExactly(Violation.Invariant.LOST_RESERVATION);
    }

    @Test
    void givenAReservationSentBeforeAMasterFailover_whenItIsNoOrder_thenItIsLostInsideTheWindowAndCounted() {
        History history = history(answer(1, 0, FIRST), otherRequest(3, "sale.lost"));
        history.addFault(new History.FaultEvent("MASTER_FAILOVER", 300, 4_000));

        Checker.Verdict verdict = new Checker().check(SCHEDULE, history, REDIS, books(Map.of()));

        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.lostInWindow()).isEqualTo(1);
    }

    @Test
    void givenAReservationSentAfterTheMasterDied_whenItIsNoOrder_thenItIsLost() {
        History history = history(answer(1, 0, FIRST), otherRequest(4, "sale.lost"));
        history.addFault(new History.FaultEvent("MASTER_FAILOVER", 300, 4_000));

        List<Violation> violations = new Checker().check(SCHEDULE, history, REDIS, books(Map.of())).violations();

        assertThat(violations).extracting(Violation::invariant).containsExactly(Violation.Invariant.LOST_RESERVATION);
    }

    @Test
    void givenAReservationAnsweredLongBeforeAMasterFailover_whenItIsNoOrder_thenItIsLost() {
        History history = history(answer(1, 0, FIRST), otherRequest(3, "sale.lost"));
        long kill = 300 + Checker.REPLICATION_LOSS_WINDOW_MILLIS + 1_000;
        history.addFault(new History.FaultEvent("MASTER_FAILOVER", kill, kill + 4_000));

        List<Violation> violations = new Checker().check(SCHEDULE, history, REDIS, books(Map.of())).violations();

        assertThat(violations).extracting(Violation::invariant).containsExactly(Violation.Invariant.LOST_RESERVATION);
    }

    @Test
    void givenAPaymentOfAReservationTheBuyerHolds_whenItIsAnsweredNotFound_thenThePromiseIsBroken() {
        History history = history(answer(1, 0, FIRST), notFound(5, "pay", FIRST));

        List<Violation> violations = new Checker().check(SCHEDULE, history, REDIS, books(Map.of())).violations();

        assertThat(violations).extracting(Violation::invariant)
                .containsExactly(Violation.Invariant.HELD_RESERVATION_NOT_FOUND);
    }

    @Test
    void givenACancellationOfAReservationRedisMayHaveLost_whenItIsAnsweredNotFound_thenItIsDocumented() {
        History history = history(answer(1, 0, FIRST), notFound(5, "cancel", FIRST));
        history.addFault(new History.FaultEvent("REDIS_WIPE", 300, 4_000));

        Checker.Verdict verdict = new Checker().check(SCHEDULE, history, REDIS, books(Map.of()));

        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.notFoundInWindow()).isEqualTo(1);
    }

    /** MySQL: the request's one order under {@link #FIRST}, one unit, as its books and Redis agree. */
    private static Books.Snapshot books(Map<String, String> aliases) {
        return new Books.Snapshot(Map.of("sku-0", new Books.Item(10, 1)),
                List.of(new Books.Order(FIRST, "buyer-1", "r-1", "ORDERED", null),
                        new Books.Order("sale.other", "buyer-1", "r-2", "FAILED", "OUT_OF_STOCK")),
                List.of(new Books.Line(FIRST, "sku-0", 1), new Books.Line("sale.other", "sku-0", 1)),
                List.of(new Books.Flow(FIRST, "sku-0", "SALE", 1)),
                List.of(new Books.Purchase("buyer-1", "sku-0", 1)), aliases);
    }

    private static Entry answer(long id, int instance, String reservationId) {
        return new Entry(id, "reserve", instance, "buyer-1", "r-1", reservationId, "{}", id * 100, id * 100 + 50, 202,
                null, "{}");
    }

    /** Another buyer's request, answered 202 with this id. */
    private static Entry otherRequest(long id, String reservationId) {
        return new Entry(id, "reserve", 0, "buyer-2", "r-9", reservationId, "{}", id * 100, id * 100 + 50, 202, null,
                "{}");
    }

    /** The buyer's payment or cancellation of a reservation, answered 404 RESERVATION_NOT_FOUND. */
    private static Entry notFound(long id, String kind, String reservationId) {
        return new Entry(id, kind, 0, "buyer-1", null, reservationId, null, id * 100, id * 100 + 20, 404,
                "RESERVATION_NOT_FOUND", "{}");
    }

    /** Sent, never answered: the client gave up. */
    private static Entry lost(long id, int instance) {
        return new Entry(id, "reserve", instance, "buyer-1", "r-1", null, "{}", id * 100, -1, -1, null, null);
    }

    private static History history(Entry... entries) {
        History history = new History(System.nanoTime());
        for (Entry entry : entries) {
            history.add(entry);
        }
        return history;
    }
}
