package io.flashsale.application.reference;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The reference's buyer buckets: a burst, then one token per interval, per buyer and sale, as reserve.lua does. */
class BuyerBucketsTest {

    private static final Instant T0 = Instant.parse("2030-06-01T10:00:00Z");
    private static final BucketLimit TWO_PER_SECOND = new BucketLimit(2, 2, Duration.ofSeconds(1));

    private final BuyerBuckets buckets = new BuyerBuckets();
    private int attempts;

    private ReservationRequest attempt(String sale, String buyer, Instant at, BucketLimit limit) {
        ActivityId activityId = new ActivityId(sale);
        String token = "t" + attempts++;
        return new ReservationRequest(ReservationId.of(activityId, token), new BuyerId(buyer), new RequestId(token),
                List.of(new ReservationLine(new SkuId("phone"), 1)), at, limit);
    }

    @Test
    void aBurstIsAllowed_thenTheNextWaitsForItsToken_thenOneComesBackEveryInterval() {
        assertThat(buckets.take(attempt("s", "b", T0, TWO_PER_SECOND))).isEmpty();
        assertThat(buckets.take(attempt("s", "b", T0, TWO_PER_SECOND))).isEmpty();

        var refused = (ReservationOutcome.RateLimited) buckets.take(attempt("s", "b", T0, TWO_PER_SECOND)).orElseThrow();
        assertThat(refused.limit()).isEqualTo(AdmissionLimit.BUYER);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(500));

        assertThat(buckets.take(attempt("s", "b", T0.plusMillis(499), TWO_PER_SECOND))).isPresent();
        assertThat(buckets.take(attempt("s", "b", T0.plusMillis(500), TWO_PER_SECOND))).isEmpty();
        assertThat(buckets.take(attempt("s", "b", T0.plusMillis(500), TWO_PER_SECOND))).isPresent();
    }

    @Test
    void eachBuyerAtEachSaleHasABucketOfItsOwn_andAnAttemptWithoutOneIsNeverRefused() {
        buckets.take(attempt("s", "b", T0, TWO_PER_SECOND));
        buckets.take(attempt("s", "b", T0, TWO_PER_SECOND));

        assertThat(buckets.take(attempt("s", "other", T0, TWO_PER_SECOND))).isEmpty();
        assertThat(buckets.take(attempt("other-sale", "b", T0, TWO_PER_SECOND))).isEmpty();
        for (int i = 0; i < 5; i++) {
            assertThat(buckets.take(attempt("s", "b", T0, null))).isEmpty();
        }
    }
}
