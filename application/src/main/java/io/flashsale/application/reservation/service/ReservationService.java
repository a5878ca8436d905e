package io.flashsale.application.reservation.service;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.in.GetReservationUseCase;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.application.reservation.port.out.Deduction;
import io.flashsale.application.reservation.port.out.DeductionLogPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SalePhase;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.reservation.StatusTimes;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The hot path: one call to the stock store decides the attempt. The database of record is only asked when the store
 * does not know the activity, to tell "not warmed up" from "no such activity", through a look-up port that may answer
 * from a memory of a few seconds (a crowd at an unknown sale must not reach the database). Reads ask whichever store decides the
 * reservation now: the hot store while it is RESERVED or was cancelled as such, the database of record once it is an
 * order (it alone knows PAID, CANCELLED and EXPIRED orders), and the hot store again if the database has no order. A
 * reservation the pipeline refused as its request's duplicate is read as the request's order (ADR 61): the view is
 * that order's, under its own reservation id, so the buyer learns the id to go on with.
 */
public class ReservationService implements ReserveStockUseCase, GetReservationUseCase {

    private final StockReservationPort stock;
    private final HeldReservationsPort hotStore;
    private final ActivityLookupPort activities;
    private final OrderLookupPort orders;
    private final IdGeneratorPort ids;
    private final Clock clock;
    private final KnownRefusals known;
    private final ReservationAdmission admission;
    private final ReservationAliasPort aliases;
    private final RiskControl risk;
    private final DeductionLogPort deductions;
    private final ShortAtHome shortAtHome;

    public ReservationService(StockReservationPort stock, HeldReservationsPort hotStore, ActivityLookupPort activities,
                              OrderLookupPort orders, IdGeneratorPort ids, Clock clock) {
        this(stock, hotStore, activities, orders, ids, clock, KnownRefusals.none());
    }

    public ReservationService(StockReservationPort stock, HeldReservationsPort hotStore, ActivityLookupPort activities,
                              OrderLookupPort orders, IdGeneratorPort ids, Clock clock, KnownRefusals known) {
        this(stock, hotStore, activities, orders, ids, clock, known, ReservationAdmission.unlimited());
    }

    /**
     * @param known     refusals this instance remembers (sold out, ended, not started) and answers without the store
     * @param admission the rate limits asked after the known refusals (those cost less than the limits) and before
     *                  the store
     */
    public ReservationService(StockReservationPort stock, HeldReservationsPort hotStore, ActivityLookupPort activities,
                              OrderLookupPort orders, IdGeneratorPort ids, Clock clock, KnownRefusals known,
                              ReservationAdmission admission) {
        this(stock, hotStore, activities, orders, ids, clock, known, admission, ReservationAliasPort.none());
    }

    /** @param aliases asked by reads only, when the database has no order of the id and the hot store no live one */
    public ReservationService(StockReservationPort stock, HeldReservationsPort hotStore, ActivityLookupPort activities,
                              OrderLookupPort orders, IdGeneratorPort ids, Clock clock, KnownRefusals known,
                              ReservationAdmission admission,
                              ReservationAliasPort aliases) {
        this(stock, hotStore, activities, orders, ids, clock, known, admission, aliases, RiskControl.none());
    }

    /**
     * @param risk asked first: the blocklist and the device limit are answered from memory, before any refusal or
     *             limit that may cost a round trip (ADR 0081)
     */
    public ReservationService(StockReservationPort stock, HeldReservationsPort hotStore, ActivityLookupPort activities,
                              OrderLookupPort orders, IdGeneratorPort ids, Clock clock, KnownRefusals known,
                              ReservationAdmission admission,
                              ReservationAliasPort aliases, RiskControl risk) {
        this(stock, hotStore, activities, orders, ids, clock, known, admission, aliases, risk, DeductionLogPort.none());
    }

    /** @param deductions told of every attempt the store answered, with its outcome and time (ADR 0087) */
    public ReservationService(StockReservationPort stock, HeldReservationsPort hotStore, ActivityLookupPort activities,
                              OrderLookupPort orders, IdGeneratorPort ids, Clock clock, KnownRefusals known,
                              ReservationAdmission admission,
                              ReservationAliasPort aliases, RiskControl risk, DeductionLogPort deductions) {
        this(stock, hotStore, activities, orders, ids, clock, known, admission, aliases, risk, deductions,
                ShortAtHome.none());
    }

    /** @param shortAtHome asked when the buyer's home slice of a sale in slices is short of a SKU (ADR 109) */
    public ReservationService(StockReservationPort stock, HeldReservationsPort hotStore, ActivityLookupPort activities,
                              OrderLookupPort orders, IdGeneratorPort ids, Clock clock, KnownRefusals known,
                              ReservationAdmission admission,
                              ReservationAliasPort aliases, RiskControl risk, DeductionLogPort deductions,
                              ShortAtHome shortAtHome) {
        this.shortAtHome = shortAtHome;
        this.risk = risk;
        this.deductions = deductions;
        this.stock = stock;
        this.hotStore = hotStore;
        this.activities = activities;
        this.orders = orders;
        this.ids = ids;
        this.clock = clock;
        this.known = known;
        this.admission = admission;
        this.aliases = aliases;
    }

    /**
     * An attempt without an idempotency key that meets a refusal this instance knows is answered here. One with a key
     * is answered here only when the refusal is sold out or ended and the key was surely never accepted (ADR 0069):
     * a retry after a lost answer must get its reservation back, not "sold out", and only the store replays it.
     */
    @Override
    public ReservationOutcome reserve(ReserveStockCommand command) {
        long arrived = System.nanoTime();
        Optional<ReservationOutcome> blocked = risk.refusal(command);
        if (blocked.isPresent()) {
            return blocked.get();
        }
        Instant now = clock.instant();
        ActivityId activityId = command.activityId();
        Optional<ReservationOutcome> refusal = command.requestId() == null
                ? known.answer(activityId, command.lines(), now)
                : known.answer(activityId, command.buyerId(), command.requestId(), command.lines(), now);
        if (refusal.isPresent()) {
            return refusal.get();
        }
        Optional<ReservationOutcome> limited = admission.refusal(command);
        if (limited.isPresent()) {
            return limited.get();
        }
        long ticket = known.ticket();
        String token = ids.next();
        // The buyer's home slice decides: their holdings and request keys live there (ADR 109).
        SaleSlices slices = stock.slices(activityId);
        ReservationId id = ReservationId.of(new SaleSlice(activityId, slices.homeOf(command.buyerId()), slices), token);
        // Without a key from the buyer the attempt is its own key: it can never be replayed.
        RequestId requestId = command.requestId() != null ? command.requestId() : new RequestId(token);
        var request = new ReservationRequest(id, command.buyerId(), requestId, command.lines(), now,
                admission.buyerBucket(command));
        ReservationOutcome outcome = stock.reserve(request);
        if (slices.sliced() && (outcome instanceof ReservationOutcome.SoldOut
                || outcome instanceof ReservationOutcome.InsufficientStock)) {
            outcome = shortAtHome.after(request, outcome, stock::reserve);
        }
        admission.afterStore(command, outcome);
        if (outcome instanceof ReservationOutcome.NotReady) {
            outcome = notInHotStore(activityId, now);
        } else if (outcome instanceof ReservationOutcome.Settled settled) {
            outcome = settledReplay(settled);
        }
        known.learn(activityId, ticket, outcome, now);
        deductions.deducted(new Deduction(activityId, requestId, command.buyerId(), command.lines(), outcome,
                Duration.ofNanos(System.nanoTime() - arrived)));
        return outcome;
    }

    /**
     * A keyed retry of a request whose reservation is an order now (the hot store keeps no record of it: ADR 71): the
     * buyer gets that reservation back as the database of record holds it. Rare (a retry after a lost answer), so the
     * database is asked; the order exists, since the hot store is told of an order only after it committed.
     */
    private ReservationOutcome settledReplay(ReservationOutcome.Settled settled) {
        Order order = orders.find(settled.reservationId()).orElseThrow(() -> new IllegalStateException(
                "the hot store settled " + settled.reservationId() + " but the database holds no such order"));
        return new ReservationOutcome.Replayed(order.toReservation());
    }

    /** The hot store does not hold the sale: it does not exist, is not loaded yet, or is over (and archived). */
    private ReservationOutcome notInHotStore(ActivityId activityId, Instant now) {
        Activity activity = activities.findById(activityId).orElseThrow(() -> new ActivityNotFoundException(activityId));
        return activity.phaseAt(now) == SalePhase.ENDED
                ? new ReservationOutcome.Ended(activity.endsAt())
                : new ReservationOutcome.NotReady();
    }

    @Override
    public Optional<Reservation> find(BuyerId buyerId, ReservationId reservationId) {
        return view(buyerId, reservationId).map(ReservationView::reservation);
    }

    @Override
    public Optional<ReservationView> view(BuyerId buyerId, ReservationId reservationId) {
        Optional<Reservation> held = hotStore.findReservation(reservationId);
        Optional<ReservationView> hotView = held.flatMap(this::decidedByTheHotStore);
        Optional<ReservationView> answer = hotView.isPresent() ? hotView
                : orders.find(reservationId).map(ReservationService::orderView)
                        .or(() -> requestOrder(reservationId, held))
                        .or(() -> held.map(reservation -> hotStoreView(reservation, null)));
        if (answer.isEmpty()) {
            hotStore.requireReadable();
        }
        return answer.filter(view -> view.reservation().isOwnedBy(buyerId));
    }

    /** The request's order when this reservation, gone from the hot store or FAILED there, is an alias of it. */
    private Optional<ReservationView> requestOrder(ReservationId reservationId, Optional<Reservation> held) {
        if (held.isPresent() && held.get().status() != ReservationStatus.FAILED) {
            return Optional.empty();
        }
        return ReservationAliasPort.requestOrder(aliases, orders, reservationId).map(ReservationService::orderView);
    }

    /** RESERVED, or cancelled by the buyer while RESERVED: no order speaks for it (or it took no stock). */
    private Optional<ReservationView> decidedByTheHotStore(Reservation reservation) {
        return switch (reservation.status()) {
            case RESERVED -> Optional.of(hotStoreView(reservation, null));
            case CANCELLED -> hotStore.cancelledAt(reservation.id()).map(at -> hotStoreView(reservation, at));
            case ORDERED, PAID, EXPIRED, FAILED -> Optional.empty();
        };
    }

    private static ReservationView hotStoreView(Reservation reservation, Instant cancelledAt) {
        StatusTimes times = StatusTimes.reservedAt(reservation.reservedAt());
        return new ReservationView(reservation,
                cancelledAt == null ? times : times.with(ReservationStatus.CANCELLED, cancelledAt), null);
    }

    private static ReservationView orderView(Order order) {
        return new ReservationView(order.toReservation(), order.times(), order.failureReason());
    }
}
