package io.flashsale.domain.activity;

import io.flashsale.domain.activity.SaleWindowChange.Moved;
import io.flashsale.domain.activity.SaleWindowChange.Reason;
import io.flashsale.domain.activity.SaleWindowChange.Refused;
import io.flashsale.domain.reservation.PurchaseLimit;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SaleWindowChangeTest {

    private static final Instant STARTS_AT = Instant.parse("2030-06-01T10:00:00Z");
    private static final Instant ENDS_AT = Instant.parse("2030-06-01T12:00:00Z");
    private static final Instant BEFORE = STARTS_AT.minusSeconds(600);
    private static final Instant RUNNING = STARTS_AT.plusSeconds(600);
    private static final Activity SALE = new Activity(new ActivityId("sale-1"), "Summer sale", STARTS_AT, ENDS_AT,
            PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10)));

    private static Activity moved(SaleWindowChange change) {
        assertThat(change).isInstanceOf(Moved.class);
        return ((Moved) change).activity();
    }

    @Test
    void givenARunningSale_whenItsEndIsExtended_thenOnlyTheEndMoves() {
        Activity extended = moved(SALE.moveWindow(null, ENDS_AT.plusSeconds(3600), RUNNING));

        assertThat(extended.endsAt()).isEqualTo(ENDS_AT.plusSeconds(3600));
        assertThat(extended.startsAt()).isEqualTo(STARTS_AT);
        assertThat(extended.items()).isEqualTo(SALE.items());
    }

    @Test
    void givenARunningSale_whenShortenedToAnEndStillAhead_thenMoved() {
        assertThat(moved(SALE.moveWindow(null, RUNNING.plusSeconds(1), RUNNING)).endsAt())
                .isEqualTo(RUNNING.plusSeconds(1));
    }

    @Test
    void givenARunningSale_whenItsEndWouldBeNowOrPast_thenRefusedAsNotAfterNow() {
        assertThat(SALE.moveWindow(null, RUNNING, RUNNING)).isEqualTo(new Refused(Reason.ENDS_NOT_AFTER_NOW));
        assertThat(SALE.moveWindow(null, RUNNING.minusSeconds(1), RUNNING))
                .isEqualTo(new Refused(Reason.ENDS_NOT_AFTER_NOW));
    }

    @Test
    void givenARunningSale_whenItsStartWouldMove_thenRefusedAsStarted() {
        assertThat(SALE.moveWindow(STARTS_AT.plusSeconds(1), null, RUNNING)).isEqualTo(new Refused(Reason.SALE_STARTED));
    }

    @Test
    void givenARunningSale_whenTheSameStartIsSentWithANewEnd_thenMoved() {
        assertThat(moved(SALE.moveWindow(STARTS_AT, ENDS_AT.plusSeconds(60), RUNNING)).endsAt())
                .isEqualTo(ENDS_AT.plusSeconds(60));
    }

    @Test
    void givenAnEndedSale_whenAnyMoveIsAsked_thenRefusedAsEnded() {
        assertThat(SALE.moveWindow(null, ENDS_AT.plusSeconds(3600), ENDS_AT)).isEqualTo(new Refused(Reason.SALE_ENDED));
    }

    @Test
    void givenASaleNotStarted_whenBothEndsMove_thenMoved() {
        Activity later = moved(SALE.moveWindow(STARTS_AT.plusSeconds(60), ENDS_AT.plusSeconds(60), BEFORE));

        assertThat(later.startsAt()).isEqualTo(STARTS_AT.plusSeconds(60));
        assertThat(later.endsAt()).isEqualTo(ENDS_AT.plusSeconds(60));
    }

    @Test
    void givenASaleNotStarted_whenItsStartWouldBeInThePast_thenRefused() {
        assertThat(SALE.moveWindow(BEFORE.minusSeconds(1), null, BEFORE)).isEqualTo(new Refused(Reason.STARTS_BEFORE_NOW));
    }

    @Test
    void givenASaleNotStarted_whenTheStartWouldComeAtOrAfterTheEnd_thenRefused() {
        assertThat(SALE.moveWindow(ENDS_AT, null, BEFORE)).isEqualTo(new Refused(Reason.ENDS_NOT_AFTER_START));
        assertThat(SALE.moveWindow(null, STARTS_AT, BEFORE)).isEqualTo(new Refused(Reason.ENDS_NOT_AFTER_START));
    }

    @Test
    void givenAPausedSale_whenItsWindowMoves_thenItStaysPaused() {
        assertThat(moved(SALE.pause().moveWindow(null, ENDS_AT.plusSeconds(60), RUNNING)).paused()).isTrue();
    }

    @Test
    void givenNoNewStartNorEnd_whenAsked_thenThatIsAProgrammingError() {
        assertThatThrownBy(() -> SALE.moveWindow(null, null, RUNNING)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenASale_whenPausedAndResumed_thenOnlyThePauseChanges() {
        assertThat(SALE.paused()).isFalse();
        assertThat(SALE.pause().paused()).isTrue();
        assertThat(SALE.pause().pause()).isEqualTo(SALE.pause());
        assertThat(SALE.pause().resume()).isEqualTo(SALE);
    }
}
