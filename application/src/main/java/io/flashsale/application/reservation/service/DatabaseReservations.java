package io.flashsale.application.reservation.service;

import io.flashsale.application.reservation.port.in.ReserveOnDatabaseUseCase;
import io.flashsale.application.reservation.port.out.BucketAnswer;
import io.flashsale.application.reservation.port.out.BucketKey;
import io.flashsale.application.reservation.port.out.FallbackReservationPort;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;

import java.util.Optional;

/**
 * Reservations while the hot store is out: the rules the reserve script applies before it touches stock (the sale's
 * window, its SKUs, a single line above the buyer's limit), judged here from the sale as the database of record holds
 * it, then the database decides stock and the buyer's holdings in one transaction ({@link FallbackReservationPort}).
 * The sale is looked up through the same short memory as the hot path, so a crowd does not read it on every attempt.
 * <p>
 * The buyer's rate limit, which the reserve script takes while Redis decides, is taken here from a bucket of this
 * instance ({@code buyerBuckets}) with the same figures, before anything else is read (ADR 0081): a buyer's hammering
 * costs the one store still standing nothing. Only a keyed attempt is first looked up by its key (one indexed read),
 * so that a retry is replayed without taking a token, as the reserve script replays before its bucket.
 * <p>
 * A sale in slices is not decided here ({@link SaleInSlicesException}, ADR 113): only its slices sell it. A keyed
 * retry of one of its reservations whose order the database holds is still replayed.
 */
public class DatabaseReservations implements ReserveOnDatabaseUseCase {

    private final FallbackReservationPort database;
    private final ActivityLookupPort activities;
    private final RateLimitBucketsPort buyerBuckets;

    public DatabaseReservations(FallbackReservationPort database, ActivityLookupPort activities) {
        this(database, activities, null);
    }

    /** @param buyerBuckets where the buyer's bucket is taken from while the database decides; null: no buyer limit */
    public DatabaseReservations(FallbackReservationPort database, ActivityLookupPort activities,
                                RateLimitBucketsPort buyerBuckets) {
        this.database = database;
        this.activities = activities;
        this.buyerBuckets = buyerBuckets;
    }

    @Override
    public ReservationOutcome reserve(ReservationRequest request) {
        if (request.keyed()) {
            // A retry is replayed before the bucket is asked, as the reserve script does: it costs no token.
            Optional<Reservation> earlier = database.acceptedBefore(request);
            if (earlier.isPresent()) {
                return new ReservationOutcome.Replayed(earlier.get());
            }
        }
        BucketLimit limit = request.buyerBucket();
        if (limit != null && buyerBuckets != null) {
            BucketAnswer answer = buyerBuckets.tryTake(new BucketKey(AdmissionLimit.BUYER,
                    request.activityId().value() + ":" + request.buyerId().value()), limit);
            if (!answer.taken()) {
                return limit.refusal(AdmissionLimit.BUYER, answer.untilNextToken());
            }
        }
        Activity activity = activities.findById(request.activityId())
                .orElseThrow(() -> new ActivityNotFoundException(request.activityId()));
        if (activity.slices().count() > 1) {
            // Its slices keep each a share of the stock, and its orders are counted slice by slice by their ids: an
            // order decided here, for the sale as a whole, would be in no slice's figures, and the slices would sell
            // its units again once the hot store is back (ADR 113).
            throw new SaleInSlicesException(activity.id(), activity.slices().count(),
                    "a reservation decided by the database");
        }
        Optional<ReservationOutcome> refusal = beforeStock(activity, request);
        return refusal.orElseGet(() -> database.reserve(request));
    }

    private static Optional<ReservationOutcome> beforeStock(Activity activity, ReservationRequest request) {
        switch (activity.phaseAt(request.at())) {
            case NOT_STARTED -> {
                return Optional.of(new ReservationOutcome.NotStarted(activity.startsAt()));
            }
            case ENDED -> {
                return Optional.of(new ReservationOutcome.Ended(activity.endsAt()));
            }
            case OPEN -> {
                // judged per line below
            }
        }
        if (activity.paused()) {
            return Optional.of(new ReservationOutcome.Paused());
        }
        for (ReservationLine line : request.lines()) {
            Optional<ActivityItem> item = activity.item(line.skuId());
            if (item.isEmpty()) {
                return Optional.of(new ReservationOutcome.UnknownSku(line.skuId()));
            }
            int limit = activity.limitFor(item.get()).max();
            if (line.quantity() > limit) {
                return Optional.of(new ReservationOutcome.LimitExceeded(line.skuId(), limit, 0));
            }
        }
        return Optional.empty();
    }
}
