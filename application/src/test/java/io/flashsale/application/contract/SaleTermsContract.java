package io.flashsale.application.contract;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationOutcome.Ended;
import io.flashsale.domain.reservation.ReservationOutcome.NotStarted;
import io.flashsale.domain.reservation.ReservationOutcome.Paused;
import io.flashsale.domain.reservation.ReservationOutcome.Replayed;
import io.flashsale.domain.reservation.ReservationOutcome.Reserved;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static io.flashsale.application.contract.ContractFixtures.ENDS_AT;
import static io.flashsale.application.contract.ContractFixtures.NOW;
import static io.flashsale.application.contract.ContractFixtures.STARTS_AT;
import static io.flashsale.application.contract.ContractFixtures.item;
import static io.flashsale.application.contract.ContractFixtures.limit;
import static io.flashsale.application.contract.ContractFixtures.line;
import static io.flashsale.application.contract.ContractFixtures.openSale;
import static io.flashsale.application.contract.ContractFixtures.randomActivityId;
import static io.flashsale.application.contract.ContractFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator's pause and window moves as the hot store decides attempts by them (ADR 79), refereed by the reference
 * {@link io.flashsale.domain.stock.ActivityLedger}: the in-memory model and the Redis scripts both run it.
 */
public abstract class SaleTermsContract {

    private final ActivityId activityId = randomActivityId();

    /** The store's reservation side; may be shared between tests. */
    protected abstract StockReservationPort stock();

    /** The same store's terms side. */
    protected abstract HotStoreSaleTermsPort terms();

    protected final ActivityId activityId() {
        return activityId;
    }

    private Activity sale() {
        return openSale(activityId, limit(5), item("a", 10));
    }

    private ReservationOutcome attempt(String buyer, String requestId, Instant at) {
        return stock().reserve(request(activityId, buyer, requestId, at, line("a", 1)));
    }

    private long available() {
        return stock().stock(activityId).orElseThrow().getFirst().ledger().available();
    }

    @Test
    void givenAPausedSale_whenABuyerTriesInsideTheWindow_thenPausedAndNothingDeducted() {
        stock().warmUp(sale());

        assertThat(terms().applyPaused(activityId, true)).isTrue();

        assertThat(attempt("b1", "r1", NOW)).isEqualTo(new Paused());
        assertThat(available()).isEqualTo(10);
        assertThat(stock().holdings(activityId, ContractFixtures.buyer("b1"))).isEmpty();
    }

    @Test
    void givenAPausedSale_whenResumed_thenAttemptsAreReservedAgain() {
        stock().warmUp(sale());
        terms().applyPaused(activityId, true);

        assertThat(terms().applyPaused(activityId, false)).isTrue();

        assertThat(attempt("b1", "r1", NOW)).isInstanceOf(Reserved.class);
        assertThat(available()).isEqualTo(9);
    }

    @Test
    void givenAPausedSale_whenTheBuyerRetriesAnAcceptedRequest_thenItIsReplayedNotRefused() {
        stock().warmUp(sale());
        assertThat(attempt("b1", "r1", NOW)).isInstanceOf(Reserved.class);
        terms().applyPaused(activityId, true);

        assertThat(attempt("b1", "r1", NOW)).isInstanceOf(Replayed.class);
        assertThat(available()).isEqualTo(9);
    }

    @Test
    void givenAPausedSale_whenTriedBeforeItsStartOrAfterItsEnd_thenTheWindowAnswers() {
        stock().warmUp(sale());
        terms().applyPaused(activityId, true);

        assertThat(attempt("b1", "r1", STARTS_AT.minusSeconds(1))).isEqualTo(new NotStarted(STARTS_AT));
        assertThat(attempt("b2", "r2", ENDS_AT)).isEqualTo(new Ended(ENDS_AT));
    }

    @Test
    void givenASaleRecordedAsPaused_whenWarmedUp_thenItIsPausedFromItsFirstAttempt() {
        stock().warmUp(sale().pause());

        assertThat(attempt("b1", "r1", NOW)).isEqualTo(new Paused());
        assertThat(available()).isEqualTo(10);
    }

    @Test
    void givenAnEndedSale_whenItsEndIsMovedLater_thenAttemptsAreReservedUntilTheNewEnd() {
        stock().warmUp(sale());
        Instant later = ENDS_AT.plus(Duration.ofHours(1));
        assertThat(attempt("b1", "r1", ENDS_AT)).isEqualTo(new Ended(ENDS_AT));

        assertThat(terms().applyWindow(activityId, STARTS_AT, later)).isTrue();

        assertThat(attempt("b2", "r2", ENDS_AT)).isInstanceOf(Reserved.class);
        assertThat(attempt("b3", "r3", later)).isEqualTo(new Ended(later));
    }

    @Test
    void givenASale_whenItsStartIsMovedEarlier_thenItOpensAtTheNewStart() {
        stock().warmUp(sale());
        Instant earlier = STARTS_AT.minus(Duration.ofMinutes(30));

        terms().applyWindow(activityId, earlier, ENDS_AT);

        assertThat(attempt("b1", "r1", earlier.minusNanos(1))).isEqualTo(new NotStarted(earlier));
        assertThat(attempt("b2", "r2", earlier)).isInstanceOf(Reserved.class);
    }

    @Test
    void givenASaleTheStoreDoesNotHold_whenPaused_thenNothingIsWrittenAndItsWarmUpLoadsItsOwnTerms() {
        assertThat(terms().applyPaused(activityId, true)).isFalse();
        assertThat(terms().applyWindow(activityId, STARTS_AT, ENDS_AT.plusSeconds(60))).isFalse();
        assertThat(stock().stock(activityId)).isEmpty();

        stock().warmUp(sale());

        assertThat(attempt("b1", "r1", NOW)).isInstanceOf(Reserved.class);
        assertThat(attempt("b2", "r2", ENDS_AT)).isEqualTo(new Ended(ENDS_AT));
    }
}
