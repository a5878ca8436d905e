package io.flashsale.adapter.redis;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sale the tests of a sale in slices (ADR 109) share, and its buyers' attempts as the reservation service makes
 * them: a sale open from a minute ago for an hour, at most 2 units a buyer, usually cut into {@link #THREE} slices;
 * buyers picked by their home slice; each attempt's id naming its buyer's home slice. Loading its slices is
 * {@link SliceFixture}'s (one at a time) or the adapter's warm-up (all of them).
 */
final class SlicedSale {

    static final SaleSlices THREE = new SaleSlices(3);

    /** Units a buyer may hold of each SKU of the sale. */
    static final int LIMIT = 2;

    private SlicedSale() {
    }

    /** A sale id of the test's own on the shared Redis: the prefix tells which test left a key behind. */
    static String newId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
    }

    /** The sale, open from a minute before {@code now} for an hour, {@link #LIMIT} units a buyer. */
    static Activity sale(String id, String name, Instant now, SaleSlices slices, ActivityItem... items) {
        return new Activity(new ActivityId(id), name, now.minusSeconds(60), now.plusSeconds(3600),
                new PurchaseLimit(LIMIT), Duration.ofMinutes(15), List.of(items), false, slices);
    }

    /** A buyer whose home among {@link #THREE} slices is {@code home}: the first of name0, name1, ... that is. */
    static BuyerId buyerAt(int home, String name) {
        return buyerAt(THREE, home, name);
    }

    /** A buyer whose home among the sale's slices is {@code home}: the first of name0, name1, ... that is. */
    static BuyerId buyerAt(SaleSlices slices, int home, String name) {
        for (int i = 0; ; i++) {
            var buyer = new BuyerId(name + i);
            if (slices.homeOf(buyer) == home) {
                return buyer;
            }
        }
    }

    /** The buyer's attempt at the sale, its id naming the buyer's home slice, as the reservation service makes it. */
    static ReservationRequest attempt(Activity sale, BuyerId buyer, String requestId, Instant at,
                                      ReservationLine... lines) {
        SaleSlices slices = sale.slices();
        var id = ReservationId.of(new SaleSlice(sale.id(), slices.homeOf(buyer), slices), token());
        return new ReservationRequest(id, buyer, new RequestId(requestId), List.of(lines), at);
    }

    /** The attempt made through the hot path, which must accept it in the slice its id names. */
    static Reservation reserved(StockReservationPort hotPath, ReservationRequest attempt) {
        ReservationOutcome outcome = hotPath.reserve(attempt);
        assertThat(outcome).as("%s of %s", attempt.id(), attempt.buyerId())
                .isInstanceOf(ReservationOutcome.Reserved.class);
        Reservation reservation = ((ReservationOutcome.Reserved) outcome).reservation();
        assertThat(reservation.id()).isEqualTo(attempt.id());
        return reservation;
    }

    /** A reservation id's token, as the service makes one. */
    static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
