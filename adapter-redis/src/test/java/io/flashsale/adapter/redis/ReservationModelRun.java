package io.flashsale.adapter.redis;

import io.flashsale.application.port.out.StockReservationPort;
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
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One seeded random walk (reserve, release with or without its moment, confirm, restore, mark paid, fail, warm-up):
 * the same operations go to Redis and to the reference model, and the outcome of every step and the whole state after
 * it (stock, holdings, reservations, cancellation moments) must be equal. Everything but the activity's unique id
 * follows from the seed.
 */
final class ReservationModelRun {

    private static final Instant BASE = Instant.parse("2031-03-01T09:00:00Z");
    private static final List<BuyerId> BUYERS = List.of(new BuyerId("b0"), new BuyerId("b1"), new BuyerId("b2"),
            new BuyerId("b3"), new BuyerId("b4"));
    private static final SkuId GHOST = new SkuId("ghost");

    private final long seed;
    private final RandomGenerator random;
    private final StockReservationPort redis;
    private final StockReservationPort model;
    private final Set<String> seen;
    private final Activity activity;
    private final List<ReservationId> known = new ArrayList<>();
    private int step;
    private String operation = "start";

    /** @param seen collects the outcome kinds and moves this run exercised */
    ReservationModelRun(long seed, StockReservationPort redis, StockReservationPort model, Set<String> seen) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.redis = redis;
        this.model = model;
        this.seen = seen;
        this.activity = randomActivity();
    }

    void run(int steps) {
        int beforeWarmUp = 1 + random.nextInt(4);
        try {
            for (step = 1; step <= steps; step++) {
                if (step == beforeWarmUp + 1) {
                    warmUp();
                } else {
                    randomStep();
                }
                compareState();
            }
        } finally {
            SharedRedis.forget(activity.id());
        }
    }

    private void randomStep() {
        int dice = random.nextInt(100);
        if (dice < 52) {
            reserve();
        } else if (dice < 60) {
            move("release", known(), StockReservationPort::release);
        } else if (dice < 66) {
            releaseAt(known());
        } else if (dice < 80) {
            move("confirm", known(), StockReservationPort::confirm);
        } else if (dice < 88) {
            restore(known());
        } else if (dice < 92) {
            move("markPaid", known(), StockReservationPort::markPaid);
        } else if (dice < 96) {
            move("fail", known(), StockReservationPort::fail);
        } else if (dice < 98) {
            switch (random.nextInt(5)) {
                case 0 -> move("release", freshId(), StockReservationPort::release);
                case 1 -> move("confirm", freshId(), StockReservationPort::confirm);
                case 2 -> restore(freshId());
                case 3 -> move("markPaid", freshId(), StockReservationPort::markPaid);
                default -> move("fail", freshId(), StockReservationPort::fail);
            }
        } else {
            warmUp();
        }
    }

    /** The buyer's cancellation at a moment of nanosecond precision, which both stores must keep exactly. */
    private void releaseAt(ReservationId id) {
        Instant at = randomMoment();
        move("releaseAt", id, (store, reservation) -> store.release(reservation, at));
    }

    private void restore(ReservationId id) {
        ReservationStatus finalStatus = random.nextBoolean() ? ReservationStatus.CANCELLED : ReservationStatus.EXPIRED;
        move("restore", id, (store, reservation) -> store.restore(reservation, finalStatus));
    }

    private void reserve() {
        var request = new ReservationRequest(freshId(), pick(BUYERS), new RequestId("k" + random.nextInt(8)),
                randomLines(), randomMoment());
        operation = "reserve " + request;
        ReservationOutcome expected = model.reserve(request);
        ReservationOutcome actual = redis.reserve(request);
        assertThat(actual).as(where()).isEqualTo(expected);
        seen.add(expected.getClass().getSimpleName());
        if (expected instanceof ReservationOutcome.Reserved) {
            known.add(request.id());
        }
    }

    private void move(String name, ReservationId id, BiPredicate<StockReservationPort, ReservationId> move) {
        operation = name + " " + id;
        boolean expected = move.test(model, id);
        boolean actual = move.test(redis, id);
        assertThat(actual).as(where()).isEqualTo(expected);
        seen.add(name + "=" + expected);
    }

    private void warmUp() {
        operation = "warm-up " + activity;
        assertThat(redis.warmUp(activity)).as(where()).isEqualTo(model.warmUp(activity));
    }

    private void compareState() {
        ActivityId activityId = activity.id();
        assertThat(redis.stock(activityId)).as(where() + " stock").isEqualTo(model.stock(activityId));
        for (BuyerId buyer : BUYERS) {
            assertThat(redis.holdings(activityId, buyer)).as(where() + " holdings of " + buyer)
                    .isEqualTo(model.holdings(activityId, buyer));
        }
        for (ReservationId id : known) {
            assertThat(redis.findReservation(id)).as(where() + " reservation " + id).isEqualTo(model.findReservation(id));
            assertThat(redis.cancelledAt(id)).as(where() + " cancelledAt " + id).isEqualTo(model.cancelledAt(id));
        }
    }

    private String where() {
        return "seed " + seed + ", step " + step + " (" + operation + "); replay with -Dflashsale.seed=" + seed;
    }

    private Activity randomActivity() {
        var id = new ActivityId("m-" + UUID.randomUUID().toString().substring(0, 18));
        var items = new ArrayList<ActivityItem>();
        items.add(new ActivityItem(new SkuId("solo"), random.nextInt(7), null, 1));
        items.add(new ActivityItem(new SkuId("seg"), random.nextInt(13), null, 2 + random.nextInt(5)));
        items.add(new ActivityItem(new SkuId("capped"), random.nextInt(9), 1 + random.nextInt(4), 1));
        items.add(new ActivityItem(new SkuId("wide"), 10 + random.nextInt(31), 2 + random.nextInt(4),
                ActivityItem.MAX_SEGMENTS));
        Collections.shuffle(items, new Random(random.nextLong()));
        // Sub-millisecond window edges: the scripts must compare instants exactly, as Activity does.
        Instant startsAt = BASE.plusNanos(random.nextLong(1_000_000_000L));
        return new Activity(id, "model sale", startsAt, startsAt.plus(Duration.ofHours(1)),
                new PurchaseLimit(1 + random.nextInt(4)), Activity.DEFAULT_PAYMENT_TIMEOUT, items);
    }

    /** 1-3 distinct SKUs in random order, now and then one the sale does not have. */
    private List<ReservationLine> randomLines() {
        var skus = new ArrayList<SkuId>(activity.items().stream().map(ActivityItem::skuId).toList());
        if (random.nextInt(20) == 0) {
            skus.add(GHOST);
        }
        Collections.shuffle(skus, new Random(random.nextLong()));
        int count = 1 + random.nextInt(3);
        var lines = new ArrayList<ReservationLine>();
        for (SkuId sku : skus.subList(0, Math.min(count, skus.size()))) {
            lines.add(new ReservationLine(sku, 1 + random.nextInt(random.nextInt(8) == 0 ? 6 : 3)));
        }
        return lines;
    }

    /** Mostly inside the window, sometimes before or after it, and right on its edges. */
    private Instant randomMoment() {
        Instant startsAt = activity.startsAt();
        Instant endsAt = activity.endsAt();
        return switch (random.nextInt(20)) {
            case 0 -> startsAt.minusNanos(1 + random.nextLong(5_000_000_000L));
            case 1 -> startsAt.minusNanos(1);
            case 2 -> startsAt;
            case 3 -> endsAt.minusNanos(1);
            case 4 -> endsAt;
            case 5 -> endsAt.plusNanos(random.nextLong(5_000_000_000L));
            default -> startsAt.plusNanos(random.nextLong(Duration.ofHours(1).toNanos()));
        };
    }

    private ReservationId known() {
        return known.isEmpty() ? freshId() : pick(known);
    }

    private ReservationId freshId() {
        return ReservationId.of(activity.id(), "s" + step + "x" + random.nextInt(1000));
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
