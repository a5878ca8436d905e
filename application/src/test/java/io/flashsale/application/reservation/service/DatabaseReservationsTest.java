package io.flashsale.application.reservation.service;

import io.flashsale.application.reservation.port.out.FallbackReservationPort;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** The rules the database path applies before the database decides stock (Redis down, issue 12). */
class DatabaseReservationsTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final SkuId SKU = new SkuId("sku-1");
    private static final Instant STARTS = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant ENDS = Instant.parse("2026-12-01T12:00:00Z");

    private final FallbackReservationPort database = mock(FallbackReservationPort.class);
    private final ActivityLookupPort activities = mock(ActivityLookupPort.class);
    private final DatabaseReservations reservations = new DatabaseReservations(database, activities);

    @Test
    void givenAnOpenSale_whenReserving_thenTheDatabaseDecides() {
        sale();
        ReservationRequest request = request(SKU, 2, STARTS.plusSeconds(1));
        ReservationOutcome decided = new ReservationOutcome.SoldOut(SKU);
        when(database.reserve(request)).thenReturn(decided);

        assertThat(reservations.reserve(request)).isEqualTo(decided);
    }

    @Test
    void givenASaleNotStartedOrEnded_whenReserving_thenItIsRefusedWithoutTheDatabase() {
        sale();

        assertThat(reservations.reserve(request(SKU, 1, STARTS.minusMillis(1))))
                .isEqualTo(new ReservationOutcome.NotStarted(STARTS));
        assertThat(reservations.reserve(request(SKU, 1, ENDS)))
                .isEqualTo(new ReservationOutcome.Ended(ENDS));
        verify(database, never()).reserve(any());
    }

    @Test
    void givenAPausedSale_whenReservingWhileRedisIsOut_thenPausedWithoutTheDatabase() {
        when(activities.findById(SALE)).thenReturn(Optional.of(new Activity(SALE, "Sale", STARTS, ENDS,
                new PurchaseLimit(2), Duration.ofMinutes(15), List.of(new ActivityItem(SKU, 10, null, 1))).pause()));

        assertThat(reservations.reserve(request(SKU, 1, STARTS.plusSeconds(1))))
                .isEqualTo(new ReservationOutcome.Paused());
        verify(database, never()).reserve(any());
    }

    @Test
    void givenAnUnknownSkuOrALineAboveTheLimit_whenReserving_thenItIsRefusedWithoutTheDatabase() {
        sale();

        assertThat(reservations.reserve(request(new SkuId("other"), 1, STARTS.plusSeconds(1))))
                .isEqualTo(new ReservationOutcome.UnknownSku(new SkuId("other")));
        assertThat(reservations.reserve(request(SKU, 3, STARTS.plusSeconds(1))))
                .isEqualTo(new ReservationOutcome.LimitExceeded(SKU, 2, 0));
        verify(database, never()).reserve(any());
    }

    @Test
    void givenASaleInSlices_whenReservingWhileRedisIsOut_thenRefusedWithoutTheDatabase() {
        when(activities.findById(SALE)).thenReturn(Optional.of(new Activity(SALE, "Sale", STARTS, ENDS,
                new PurchaseLimit(2), Duration.ofMinutes(15), List.of(new ActivityItem(SKU, 10, null, 1)), false,
                new SaleSlices(3))));

        assertThatThrownBy(() -> reservations.reserve(request(SKU, 1, STARTS.plusSeconds(1))))
                .isInstanceOf(SaleInSlicesException.class);
        verify(database, never()).reserve(any());
    }

    @Test
    void givenNoSuchSale_whenReserving_thenActivityNotFound() {
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> reservations.reserve(request(SKU, 1, STARTS)))
                .isInstanceOf(ActivityNotFoundException.class);
    }

    @Test
    void givenTheBuyersBucket_whenTheBuyerHammers_thenRefusedRateLimitedBeforeAnyReadAndOtherBuyersGoOn() {
        ReservationAdmissionTest.CountingBuckets buckets = new ReservationAdmissionTest.CountingBuckets();
        DatabaseReservations limited = new DatabaseReservations(database, activities, buckets);
        BucketLimit three = new BucketLimit(3, 1, Duration.ofSeconds(1));
        sale();
        when(database.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(SKU));

        for (int i = 0; i < 3; i++) {
            assertThat(limited.reserve(request("hammer", three))).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        }
        ReservationOutcome refused = limited.reserve(request("hammer", three));
        assertThat(refused).isInstanceOfSatisfying(ReservationOutcome.RateLimited.class,
                rateLimited -> assertThat(rateLimited.limit()).isEqualTo(AdmissionLimit.BUYER));
        assertThat(limited.reserve(request("patient", three))).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        verify(database, times(4)).reserve(any());
        verify(database, never()).acceptedBefore(any());
        verify(activities, times(4)).findById(SALE);
    }

    @Test
    void givenAKeyedRetryOfAnAcceptedAttempt_whenTheBuyersBucketIsEmpty_thenReplayedBeforeTheBucketIsAsked() {
        ReservationAdmissionTest.CountingBuckets buckets = new ReservationAdmissionTest.CountingBuckets();
        DatabaseReservations limited = new DatabaseReservations(database, activities, buckets);
        BucketLimit one = new BucketLimit(1, 1, Duration.ofHours(1));
        sale();
        ReservationRequest first = keyed("retrier", "key-1", "t1", one);
        Reservation accepted = first.toReservation();
        when(database.reserve(first)).thenReturn(new ReservationOutcome.Reserved(accepted));

        assertThat(limited.reserve(first)).isEqualTo(new ReservationOutcome.Reserved(accepted));
        assertThat(limited.reserve(keyed("retrier", "key-2", "t2", one)))
                .as("the bucket of one is empty").isInstanceOf(ReservationOutcome.RateLimited.class);
        int bucketAsks = buckets.asked.size();
        when(database.acceptedBefore(any())).thenReturn(Optional.of(accepted));

        assertThat(limited.reserve(keyed("retrier", "key-1", "t3", one)))
                .isEqualTo(new ReservationOutcome.Replayed(accepted));
        assertThat(buckets.asked).as("no token taken for the retry").hasSize(bucketAsks);
        verify(database, times(1)).reserve(any());
    }

    @Test
    void givenAnAttemptWithoutAKeyOfTheBuyers_thenItIsNotKeyed_andOneWithAKeyIs() {
        assertThat(keyed("buyer", "t1", "t1", null).keyed()).isFalse();
        assertThat(keyed("buyer", "key-1", "t1", null).keyed()).isTrue();
        assertThat(keyed("buyer", "1", "t1", null).keyed()).as("a key the token ends with").isTrue();
    }

    @Test
    void givenNoBuyerLimit_whenReserving_thenNoBucketIsAsked() {
        ReservationAdmissionTest.CountingBuckets buckets = new ReservationAdmissionTest.CountingBuckets();
        sale();
        new DatabaseReservations(database, activities, buckets).reserve(request("anyone", null));
        assertThat(buckets.asked).isEmpty();
    }

    /** An attempt without a key of the buyer's: its key is its reservation id's token. */
    private static ReservationRequest request(String buyer, BucketLimit limit) {
        return keyed(buyer, "t1", "t1", limit);
    }

    private static ReservationRequest keyed(String buyer, String key, String token, BucketLimit limit) {
        return new ReservationRequest(ReservationId.of(SALE, token), new BuyerId(buyer), new RequestId(key),
                List.of(new ReservationLine(SKU, 1)), STARTS.plusSeconds(1), limit);
    }

    private void sale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(new Activity(SALE, "Sale", STARTS, ENDS,
                new PurchaseLimit(2), Duration.ofMinutes(15), List.of(new ActivityItem(SKU, 10, null, 1)))));
    }

    private static ReservationRequest request(SkuId sku, int quantity, Instant at) {
        return new ReservationRequest(ReservationId.of(SALE, "t1"), new BuyerId("buyer"), new RequestId("r1"),
                List.of(new ReservationLine(sku, quantity)), at);
    }
}
