package io.flashsale.benchmarks.redis;

import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.benchmarks.InventoryStrategy;
import io.flashsale.benchmarks.SaleItem;
import io.flashsale.benchmarks.Take;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * 7. Flashsale's reserve script through the production adapter, built the way the service builds it
 * ({@link RedisHotStore#stockReservations()}): idempotency index, window, limit, stock, the reservation record and
 * the outbox entry, in one EVALSHA. Each SKU is a sale of its own with a registry of this run's, so no relay of a
 * running service picks its outbox up; its keys are deleted on close.
 */
public final class FlashsaleScriptStrategy implements InventoryStrategy {

    private final RedisServer server;
    private final String outboxRegistry;
    private final RedisHotStore hotStore;
    private final StockReservationPort reservations;
    private final Set<String> activities = ConcurrentHashMap.newKeySet();
    private final String run = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    private final AtomicLong tokens = new AtomicLong();
    private final ScriptCost cost;

    public FlashsaleScriptStrategy(RedisServer server) {
        this.server = server;
        this.outboxRegistry = "bench:outbox:" + run;
        this.hotStore = RedisHotStore.connect(
                new RedisHotStore.Settings(server.host(), server.port(), null, 0, Duration.ofSeconds(10)),
                outboxRegistry);
        this.reservations = hotStore.stockReservations();
        this.cost = new ScriptCost(server);
    }

    @Override
    public String name() {
        return "7 Flashsale script (adapter)";
    }

    static ActivityId activityOf(String sku) {
        return new ActivityId("bench-" + sku);
    }

    @Override
    public void stock(SaleItem item) {
        ActivityId activity = activityOf(item.sku());
        Instant now = Instant.now();
        reservations.warmUp(new Activity(activity, "benchmark " + item.sku(), now.minus(Duration.ofHours(1)),
                now.plus(Duration.ofHours(6)), new PurchaseLimit(item.perBuyerLimit()), Duration.ofMinutes(15),
                List.of(new ActivityItem(new SkuId(item.sku()), item.stock(), null, 1))));
        activities.add(activity.value());
    }

    @Override
    public Take take(String sku, String buyer, int quantity) {
        String token = run + "x" + tokens.incrementAndGet();
        ReservationOutcome outcome = reservations.reserve(new ReservationRequest(
                ReservationId.of(activityOf(sku), token), new BuyerId(buyer), new RequestId(token),
                List.of(new ReservationLine(new SkuId(sku), quantity)), Instant.now()));
        return switch (outcome) {
            case ReservationOutcome.Reserved reserved -> Take.TAKEN;
            case ReservationOutcome.SoldOut soldOut -> Take.SOLD_OUT;
            case ReservationOutcome.InsufficientStock insufficient -> Take.SOLD_OUT;
            case ReservationOutcome.LimitExceeded limitExceeded -> Take.LIMIT;
            case ReservationOutcome.Replayed replayed -> Take.ERROR;
            case ReservationOutcome.Settled settled -> Take.ERROR;
            case ReservationOutcome.NotStarted notStarted -> Take.ERROR;
            case ReservationOutcome.Ended ended -> Take.ERROR;
            case ReservationOutcome.Paused paused -> Take.ERROR;
            case ReservationOutcome.NotReady notReady -> Take.ERROR;
            case ReservationOutcome.TryAgain tryAgain -> Take.ERROR;
            case ReservationOutcome.UnknownSku unknownSku -> Take.ERROR;
            case ReservationOutcome.RateLimited rateLimited -> Take.ERROR; // decided by the service, never by the script
            case ReservationOutcome.Blocked blocked -> Take.ERROR; // decided by the service, never by the script
        };
    }

    @Override
    public long unitsLeft(String sku) {
        return reservations.stock(activityOf(sku)).orElseThrow().stream()
                .filter(stock -> stock.skuId().value().equals(sku))
                .mapToLong(stock -> stock.ledger().available()).findFirst().orElseThrow();
    }

    /** Redis's EVALSHA calls and time: the report turns them into the script's cost per call on the server. */
    @Override
    public Map<String, Long> counters() {
        return cost.totals();
    }

    @Override
    public void close() {
        cost.close();
        hotStore.close();
        SaleKeys.delete(server, activities, outboxRegistry);
    }
}
