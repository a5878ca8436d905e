package io.flashsale.application.order.service;

import io.flashsale.application.order.model.DeadLetterPass;
import io.flashsale.application.order.port.in.ReleaseDeadLettersUseCase;
import io.flashsale.application.order.port.out.DeadLetter;
import io.flashsale.application.order.port.out.DeadLetterPort;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A dead letter never holds stock longer than an unpaid order would (ADR 78): once the sale's payment deadline of a
 * dead-lettered reservation has passed and it is still RESERVED in the hot store, the database of record closes it as a
 * FAILED order that takes no stock ({@code NOT_PLACED_IN_TIME}), then the hot store fails it, giving its units and the
 * buyer's allowance back. The database decides first: a replay or a late delivery that placed the order before wins,
 * and this pass only brings the hot store to that order. The hot store's record, not the dead letter's payload, says
 * what is held, so an unreadable event with a readable key is released too.
 */
public class DeadLetterReleaseService implements ReleaseDeadLettersUseCase {

    private final DeadLetterPort deadLetters;
    private final HeldReservationsPort heldReservations;
    private final OrderPlacementPort orders;
    private final HotStoreSettlementPort hotStore;
    private final ActivityRecordsPort activities;
    private final OrderPipelineMetricsPort metrics;
    private final Clock clock;

    public DeadLetterReleaseService(DeadLetterPort deadLetters, HeldReservationsPort heldReservations,
                                    OrderPlacementPort orders,
                                    HotStoreSettlementPort hotStore, ActivityRecordsPort activities,
                                    OrderPipelineMetricsPort metrics, Clock clock) {
        this.deadLetters = deadLetters;
        this.heldReservations = heldReservations;
        this.orders = orders;
        this.hotStore = hotStore;
        this.activities = activities;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public DeadLetterPass releaseOverdue(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        Instant now = clock.instant();
        Map<ActivityId, Optional<Duration>> paymentTimeouts = new HashMap<>();
        Set<ReservationId> seen = new HashSet<>();
        int released = 0;
        int held = 0;
        for (DeadLetter letter : deadLetters.list(max)) {
            if (letter.reservationId() == null || !ReservationId.isValid(letter.reservationId())) {
                continue;
            }
            ReservationId id = new ReservationId(letter.reservationId());
            Optional<Reservation> reserved = seen.add(id) ? heldReservations.findReservation(id)
                    .filter(reservation -> reservation.status() == ReservationStatus.RESERVED) : Optional.empty();
            if (reserved.isEmpty()) {
                // Settled, cancelled by the buyer, or never held here: nothing of it is held.
                continue;
            }
            Optional<Duration> timeout = paymentTimeouts.computeIfAbsent(id.activityId(),
                    activity -> activities.find(activity).map(ActivityRecord::activity)
                            .map(Activity::paymentTimeout));
            if (timeout.isEmpty() || reserved.get().reservedAt().plus(timeout.get()).isAfter(now)) {
                held++;
                continue;
            }
            if (release(reserved.get(), now)) {
                released++;
            }
        }
        metrics.deadLettersHeld(held);
        return new DeadLetterPass(released, held);
    }

    /** True when this call closed the reservation; false when an order settled it before. */
    private boolean release(Reservation reservation, Instant now) {
        ReservationId id = reservation.id();
        OrderPlacement placement = orders.recordNotPlacedInTime(reservation, now);
        switch (placement) {
            case OrderPlacement.Refused refused -> {
                hotStore.settle(reservation.activityId(), List.of(), List.of(id));
                metrics.deadLetterReleased(refused.order());
                return true;
            }
            case OrderPlacement.AlreadyPlaced already -> catchUp(already.order());
            case OrderPlacement.Placed placed -> throw new IllegalStateException("recording " + id + " placed it");
            case OrderPlacement.CancelledBeforeOrder cancelled -> {
                // The buyer's cancel settled it; the hot store gave the units back then.
            }
        }
        return false;
    }

    /** As a redelivery of a settled reservation does: the hot store follows the order the database holds. */
    private void catchUp(Order order) {
        switch (order.status()) {
            case ORDERED -> hotStore.settle(order.activityId(), List.of(order.id()), List.of());
            case FAILED -> hotStore.settle(order.activityId(), List.of(), List.of(order.id()));
            default -> {
                // Closed since (paid, cancelled, expired): reconciliation catches the hot store up.
            }
        }
    }
}
