package io.flashsale.application.reservation.service;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.BucketAnswer;
import io.flashsale.application.reservation.port.out.BucketKey;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Which limit refuses which attempt, in which order, that a refused attempt never reaches the store, and that the
 * buyer's limit goes to the store with the attempt (ADR 0060) without costing the sale's admission.
 */
@ExtendWith(MockitoExtension.class)
class ReservationAdmissionTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final ActivityId QUIET_SALE = new ActivityId("quiet-sale");
    private static final SkuId PHONE = new SkuId("phone");
    private static final List<ReservationLine> LINES = List.of(new ReservationLine(PHONE, 1));
    private static final BucketLimit THREE = new BucketLimit(3, 1, Duration.ofSeconds(1));
    private static final BucketLimit ONE = new BucketLimit(1, 1, Duration.ofSeconds(2));

    /** Buckets that never refill, with every key asked for in order; a token given back is taken no more. */
    static final class CountingBuckets implements RateLimitBucketsPort {
        final Map<BucketKey, Long> taken = new HashMap<>();
        final List<BucketKey> asked = new ArrayList<>();

        @Override
        public BucketAnswer tryTake(BucketKey key, BucketLimit limit) {
            asked.add(key);
            long before = taken.getOrDefault(key, 0L);
            if (before >= limit.capacity()) {
                return new BucketAnswer(false, 0, Duration.ofMillis(300));
            }
            taken.put(key, before + 1);
            return new BucketAnswer(true, limit.capacity() - before - 1, Duration.ZERO);
        }

        @Override
        public void giveBack(BucketKey key, BucketLimit limit) {
            taken.merge(key, -1L, Long::sum);
        }
    }

    private final CountingBuckets shared = new CountingBuckets();
    private final CountingBuckets local = new CountingBuckets();

    @Mock
    private StockReservationPort stock;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ActivityStore activities;
    @Mock
    private OrderLookupPort orders;
    @Mock
    private IdGeneratorPort ids;

    private ReservationService service(AdmissionPolicy policy) {
        oneSlice();
        return new ReservationService(stock, heldReservations, activities, orders, ids,
                Clock.fixed(Instant.parse("2030-06-01T10:15:30Z"), ZoneOffset.UTC), KnownRefusals.none(),
                new ReservationAdmission(policy, shared, local));
    }

    private void oneSlice() {
        // A sale of one slice, as every sale before slices (ADR 109).
        lenient().when(stock.slices(any())).thenReturn(SaleSlices.ONE);
    }

    private static ReserveStockCommand attempt(ActivityId sale, String buyer, String address) {
        return new ReserveStockCommand(sale, new BuyerId(buyer), null, LINES, address);
    }

    private static ReservationOutcome.RateLimited buyerRefusal() {
        return THREE.refusal(AdmissionLimit.BUYER, Duration.ofMillis(300));
    }

    @Test
    void theBuyersBucketGoesToTheStoreWithTheAttempt_withTheSalesOwnFiguresWhereItHasThem() {
        when(ids.next()).thenReturn("01JTOKEN");
        when(stock.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(PHONE));
        ReservationService service = service(new AdmissionPolicy(THREE, Map.of(SALE, ONE), null, null, Map.of()));

        service.reserve(attempt(SALE, "b", null));
        service.reserve(attempt(QUIET_SALE, "b", null));

        var requests = ArgumentCaptor.forClass(ReservationRequest.class);
        verify(stock, times(2)).reserve(requests.capture());
        assertThat(requests.getAllValues()).extracting(ReservationRequest::buyerBucket).containsExactly(ONE, THREE);
        assertThat(shared.asked).isEmpty();
    }

    @Test
    void aBuyerRefusalCarriesTheBucketsFigures() {
        ReservationOutcome.RateLimited limited = buyerRefusal();

        assertThat(limited.limit()).isEqualTo(AdmissionLimit.BUYER);
        assertThat(limited.capacity()).isEqualTo(3);
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofMillis(300));
        // 300 ms to the next token, then two more seconds for the other two of the three.
        assertThat(limited.fullAfter()).isEqualTo(Duration.ofMillis(2300));
    }

    @Test
    void theClientIsAskedThenTheSaleOnThisInstance_andTheBuyerNeitherOfThem() {
        var admission = new ReservationAdmission(new AdmissionPolicy(THREE, Map.of(), THREE, ONE, Map.of()),
                shared, local);

        assertThat(admission.refusal(attempt(SALE, "b1", "10.0.0.7"))).isEmpty();
        var refused = (ReservationOutcome.RateLimited) admission.refusal(attempt(SALE, "b2", "10.0.0.8")).orElseThrow();

        assertThat(refused.limit()).isEqualTo(AdmissionLimit.SALE);
        assertThat(shared.asked).containsExactly(
                new BucketKey(AdmissionLimit.CLIENT, "10.0.0.7"), new BucketKey(AdmissionLimit.CLIENT, "10.0.0.8"));
        assertThat(local.asked).containsExactly(new BucketKey(AdmissionLimit.SALE, "summer-sale"),
                new BucketKey(AdmissionLimit.SALE, "summer-sale"));
    }

    @Test
    void aBuyerTheStoreRefusedOnItsBucketSpendsNoneOfTheSalesAdmission() {
        when(ids.next()).thenReturn("01JTOKEN");
        when(stock.reserve(argThat(request -> request != null && request.buyerId().value().equals("hammering"))))
                .thenReturn(buyerRefusal());
        when(stock.reserve(argThat(request -> request != null && request.buyerId().value().equals("patient"))))
                .thenReturn(new ReservationOutcome.SoldOut(PHONE));
        ReservationService service = service(new AdmissionPolicy(ONE, Map.of(), null, THREE, Map.of()));

        for (int i = 0; i < 10; i++) {
            assertThat(service.reserve(attempt(SALE, "hammering", null)))
                    .isInstanceOf(ReservationOutcome.RateLimited.class);
        }

        assertThat(local.taken).containsEntry(new BucketKey(AdmissionLimit.SALE, "summer-sale"), 0L);
        assertThat(service.reserve(attempt(SALE, "patient", null))).isInstanceOf(ReservationOutcome.SoldOut.class);
    }

    @Test
    void aRefusalOfAnotherKindKeepsTheSaleToken() {
        when(ids.next()).thenReturn("01JTOKEN");
        when(stock.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(PHONE));
        ReservationService service = service(new AdmissionPolicy(ONE, Map.of(), null, THREE, Map.of()));

        service.reserve(attempt(SALE, "b", null));

        assertThat(local.taken).containsEntry(new BucketKey(AdmissionLimit.SALE, "summer-sale"), 1L);
    }

    @Test
    void aClientWithoutAnAddressIsNotCountedByTheClientLimit() {
        var admission = new ReservationAdmission(new AdmissionPolicy(null, Map.of(), ONE, null, Map.of()),
                shared, local);

        for (int i = 0; i < 5; i++) {
            assertThat(admission.refusal(attempt(SALE, "b" + i, null))).isEmpty();
        }
        assertThat(admission.refusal(attempt(SALE, "x", "10.0.0.9"))).isEmpty();
        assertThat(admission.refusal(attempt(SALE, "y", "10.0.0.9")).orElseThrow())
                .extracting(outcome -> ((ReservationOutcome.RateLimited) outcome).limit()).isEqualTo(AdmissionLimit.CLIENT);
    }

    @Test
    void whenTheSharedBucketsCannotBeAsked_thenTheAttemptGoesOnToTheStore() {
        RateLimitBucketsPort down = (key, limit) -> {
            throw new IllegalStateException("Redis does not answer");
        };
        var admission = new ReservationAdmission(new AdmissionPolicy(ONE, Map.of(), ONE, null, Map.of()), down, local);

        for (int i = 0; i < 3; i++) {
            assertThat(admission.refusal(attempt(SALE, "b", "10.0.0.1"))).isEmpty();
        }
    }

    @Test
    void unlimitedAsksNoBucketAndSendsNone() {
        ReservationService service = service(AdmissionPolicy.unlimited());
        when(ids.next()).thenReturn("01JTOKEN");
        when(stock.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(PHONE));

        service.reserve(attempt(SALE, "b", "10.0.0.1"));

        assertThat(shared.asked).isEmpty();
        assertThat(local.asked).isEmpty();
        verify(stock).reserve(argThat(request -> request.buyerBucket() == null));
    }

    @Test
    void aKnownSoldOutIsAnsweredBeforeAnyLimitIsAsked() {
        oneSlice();
        when(ids.next()).thenReturn("01JTOKEN");
        when(stock.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(PHONE));
        var service = new ReservationService(stock, heldReservations, activities, orders, ids,
                Clock.fixed(Instant.parse("2030-06-01T10:15:30Z"), ZoneOffset.UTC),
                KnownRefusals.remembering(Duration.ofSeconds(10), Duration.ofMillis(100)),
                new ReservationAdmission(new AdmissionPolicy(ONE, Map.of(), null, ONE, Map.of()), shared, local));

        service.reserve(attempt(SALE, "b", null));
        for (int i = 0; i < 5; i++) {
            assertThat(service.reserve(attempt(SALE, "b", null))).isInstanceOf(ReservationOutcome.SoldOut.class);
        }

        assertThat(local.asked).hasSize(1);
        verify(stock, times(1)).reserve(any());
        verify(activities, never()).findById(any());
    }
}
