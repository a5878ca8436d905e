package io.flashsale.application.reconciliation.service;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AcknowledgementJournalTest {

    static final ActivityId SALE = new ActivityId("summer-sale");

    static Reservation reservation(int n) {
        return new Reservation(ReservationId.of(SALE, "t" + n), SALE, new BuyerId("buyer-" + n),
                new RequestId("r" + n), List.of(new ReservationLine(new SkuId("sku"), 1)), ReservationStatus.RESERVED,
                Instant.parse("2026-12-01T10:00:00Z"));
    }

    @Test
    void givesBackWhatWasAddedBetweenTwoPositionsOldestFirst() {
        var journal = new AcknowledgementJournal(8);
        for (int i = 0; i < 5; i++) {
            journal.add(reservation(i));
        }
        assertThat(journal.written()).isEqualTo(5);
        assertThat(journal.between(1, 4)).containsExactly(reservation(1), reservation(2), reservation(3));
        assertThat(journal.between(5, 5)).isEmpty();
    }

    @Test
    void keepsOnlyItsCapacityRoundedUpToAPowerOfTwo() {
        var journal = new AcknowledgementJournal(3);
        for (int i = 0; i < 10; i++) {
            journal.add(reservation(i));
        }
        // Capacity 4: entries 6..9 are held, 0..5 were overwritten.
        assertThat(journal.between(0, 10)).containsExactly(reservation(6), reservation(7), reservation(8),
                reservation(9));
    }

    @Test
    void aJournalOfNothingKeepsNothing() {
        var journal = new AcknowledgementJournal(0);
        journal.add(reservation(1));
        assertThat(journal.keepsAnything()).isFalse();
        assertThat(journal.written()).isZero();
        assertThat(journal.between(0, 1)).isEmpty();
        assertThatThrownBy(() -> new AcknowledgementJournal(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
