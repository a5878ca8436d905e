package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.OutboxEntryDecoder;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reference.InMemoryStockReservations;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.IllegalStockMoveException;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.lettuce.core.Consumer;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.sync.RedisCommands;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One seeded random walk (reserve, release with or without its moment, confirm, restore, mark paid, fail, warm-up,
 * audited adjustments, repairs from a fresh or a stale look, rebuilds after a loss, a relay acknowledging outbox
 * entries with their broker positions, the archive's checks and delete): the same operations go to Redis and
 * to the reference model, and the outcome of every step (a refusal included) and the whole state after it (stock,
 * holdings, reservations, cancellation moments) must be equal. What only Redis keeps is checked against what the walk
 * itself accepted: the outbox (one entry per accepted reservation, in order), the request index, every segment (never
 * below zero) and each segmented SKU's cursor. Everything but the activity's unique id follows from the seed.
 */
final class ReservationModelRun {

    private static final Instant BASE = Instant.parse("2031-03-01T09:00:00Z");
    private static final List<BuyerId> BUYERS = List.of(new BuyerId("b0"), new BuyerId("b1"), new BuyerId("b2"),
            new BuyerId("b3"), new BuyerId("b4"));
    private static final SkuId GHOST = new SkuId("ghost");

    private final long seed;
    private final RandomGenerator random;
    private final RedisStockReservationAdapter redis;
    private final RedisHotStoreReconciliation redisHot;
    private final RedisHotStoreRebuild redisRebuild = new RedisHotStoreRebuild(SharedRedis.connection(),
            SharedRedis.registry());
    private final RedisStockAdjustments redisAdjustments = new RedisStockAdjustments(SharedRedis.connection());
    private final RedisRelayedEvents redisRelayed = new RedisRelayedEvents(SharedRedis.connection());
    private final RedisCommands<String, String> commands;
    private InMemoryStockReservations model = new InMemoryStockReservations();
    private final RedisReservationOutbox outbox = new RedisReservationOutbox(SharedRedis.connection(),
            SharedRedis.registry());
    private final RedisActivityArchive archive = new RedisActivityArchive(SharedRedis.connection(),
            SharedRedis.registry());
    private final Set<String> seen;
    private final Activity activity;
    private final List<ReservationId> known = new ArrayList<>();
    /** Each known reservation as the database of record would hold its order: what a restore brings (ADR 71). */
    private final Map<ReservationId, Reservation> orderOf = new HashMap<>();
    /** What Redis must hold besides what the model shows, since the last (re)load. */
    private final List<String> outboxExpected = new ArrayList<>();
    private final Map<String, String> requestsExpected = new HashMap<>();
    private final Map<SkuId, Long> cursorsExpected = new HashMap<>();
    /** The reservations MySQL would not have settled yet: what the in-flight index must list (ADR 43). */
    private final Set<String> inFlightExpected = new HashSet<>();
    private final Map<SkuId, String> staleVersions = new HashMap<>();
    private int step;
    private String operation = "start";

    /** @param seen collects the outcome kinds and moves this run exercised */
    ReservationModelRun(long seed, RedisStockReservationAdapter redis, RedisHotStoreReconciliation redisHot,
                        RedisCommands<String, String> commands, Set<String> seen) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.redis = redis;
        this.redisHot = redisHot;
        this.commands = commands;
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
        if (dice < 43) {
            reserve();
        } else if (dice < 45) {
            acknowledge();
        } else if (dice < 46) {
            archive();
        } else if (dice < 56) {
            move("release", known(), ReservationTransitionsPort::release);
        } else if (dice < 62) {
            releaseAt(known());
        } else if (dice < 76) {
            move("confirm", known(), ReservationTransitionsPort::confirm);
        } else if (dice < 84) {
            restore(known());
        } else if (dice < 88) {
            move("markPaid", known(), ReservationTransitionsPort::markPaid);
        } else if (dice < 92) {
            move("fail", known(), ReservationTransitionsPort::fail);
        } else if (dice < 93) {
            adjust();
        } else if (dice < 96) {
            repair();
        } else if (dice < 97) {
            rebuild();
        } else if (dice < 98) {
            switch (random.nextInt(5)) {
                case 0 -> move("release", freshId(), ReservationTransitionsPort::release);
                case 1 -> move("confirm", freshId(), ReservationTransitionsPort::confirm);
                case 2 -> restore(freshId());
                case 3 -> move("markPaid", freshId(), ReservationTransitionsPort::markPaid);
                default -> move("fail", freshId(), ReservationTransitionsPort::fail);
            }
        } else {
            warmUp();
        }
    }

    /**
     * What a relay does with the outbox: reads the next few entries in the group, publishes them (at made-up broker
     * positions) and acknowledges them with their positions. The entries come in the order they were accepted, each
     * reservation that still has a record gets its position, and the outbox keeps only what no relay has read.
     */
    private void acknowledge() {
        int max = 1 + random.nextInt(4);
        operation = "acknowledge the next " + max + " outbox entries";
        List<OutboxEntry> read = outbox.readNew(activity.id(), "walk-relay", max);
        List<String> ids = read.stream().map(entry -> entry.reservation().id().value()).toList();
        assertThat(ids).as(where() + " read").isEqualTo(outboxExpected.subList(0, Math.min(max, outboxExpected.size())));
        List<EventPosition> positions = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            positions.add(new EventPosition(random.nextInt(3), step * 10L + i));
        }
        outbox.acknowledge(activity.id(), read, positions);
        outboxExpected.subList(0, ids.size()).clear();
        String records = RedisKeys.reservations(activity.id());
        for (int i = 0; i < ids.size(); i++) {
            // An order has no record, a restored one only its letter (ADR 71): nothing to record a position on.
            Optional<ReservationRecord> stored = ReservationRecord.read(commands.hget(records, ids.get(i)));
            EventPosition recorded = positions.get(i);
            assertThat(stored.map(ReservationRecord::position)).as(where() + " position of " + ids.get(i))
                    .isEqualTo(stored.map(record -> recorded));
        }
        seen.add(read.isEmpty() ? "acknowledge/none" : "acknowledge");
    }

    /**
     * The archive's checks against what the walk knows (reservations still RESERVED, the buyers' cancellations, an
     * outbox every relay has acknowledged), then, when nothing is RESERVED, its delete: done only when the outbox is
     * drained, after which the sale is gone from Redis as if never loaded, and the model starts afresh as well.
     */
    private void archive() {
        operation = "archive";
        ActivityId activityId = activity.id();
        long reserved = inFlightExpected.stream()
                .filter(id -> model.findReservation(new ReservationId(id)).map(Reservation::status)
                        .equals(Optional.of(ReservationStatus.RESERVED)))
                .count();
        assertThat(archive.reservedCount(activityId)).as(where() + " reserved count").isEqualTo(reserved);
        Set<ReservationId> cancelled = known.stream()
                .filter(id -> model.findReservation(id).map(Reservation::status)
                        .equals(Optional.of(ReservationStatus.CANCELLED)))
                .collect(Collectors.toSet());
        assertThat(archive.cancelledReservations(activityId).stream().filter(known::contains))
                .as(where() + " cancelled reservations").containsExactlyInAnyOrderElementsOf(cancelled);
        boolean drained = outboxExpected.isEmpty();
        assertThat(redisRelayed.outboxDrained(activityId)).as(where() + " outbox drained").isEqualTo(drained);
        if (reserved > 0) {
            seen.add("archive=waits");
            return;
        }
        assertThat(archive.delete(activityId)).as(where() + " deleted").isEqualTo(drained);
        if (!drained) {
            seen.add("archive=refused");
            return;
        }
        model = new InMemoryStockReservations();
        outboxExpected.clear();
        requestsExpected.clear();
        cursorsExpected.clear();
        inFlightExpected.clear();
        assertThat(commands.exists(RedisKeys.activityKeys(activityId).toArray(String[]::new)))
                .as(where() + " keys left").isZero();
        assertThat(commands.keys(RedisKeys.requests(activityId) + ":*")).as(where() + " request buckets left").isEmpty();
        seen.add("archive=deleted");
    }

    /** The buyer's cancellation at a moment of nanosecond precision, which both stores must keep exactly. */
    private void releaseAt(ReservationId id) {
        Instant at = randomMoment();
        move("releaseAt", id, (store, reservation) -> store.release(reservation, at));
    }

    /** A restore brings the order's buyer, request and lines; one of an id never reserved brings made-up ones. */
    private void restore(ReservationId id) {
        ReservationStatus finalStatus = random.nextBoolean() ? ReservationStatus.CANCELLED : ReservationStatus.EXPIRED;
        Reservation order = orderOf.getOrDefault(id, new Reservation(id, activity.id(), pick(BUYERS),
                new RequestId("k" + random.nextInt(8)), randomLines(), ReservationStatus.ORDERED, BASE));
        PendingRestore restore = PendingRestore.of(order, finalStatus);
        operation = "restore " + restore;
        String expected = resultOf(() -> model.restore(restore));
        String actual = resultOf(() -> redis.restore(restore));
        assertThat(actual).as(where()).isEqualTo(expected);
        seen.add("restore=" + expected);
    }

    private void reserve() {
        var request = new ReservationRequest(freshId(), pick(BUYERS), new RequestId("k" + random.nextInt(8)),
                randomLines(), randomMoment());
        operation = "reserve " + request;
        ReservationOutcome expected = model.reserve(request);
        ReservationOutcome actual = redis.reserve(request);
        assertThat(actual).as(where()).isEqualTo(expected);
        seen.add(expected.getClass().getSimpleName());
        if (expected instanceof ReservationOutcome.Reserved(Reservation reservation)) {
            known.add(request.id());
            orderOf.put(request.id(), reservation);
            outboxExpected.add(request.id().value());
            inFlightExpected.add(request.id().value());
            requestsExpected.put(RedisKeys.requestField(request.buyerId(), request.requestId()),
                    RedisKeys.requestValue(request.id(), request.requestId()));
            for (ReservationLine line : request.lines()) {
                if (activity.item(line.skuId()).orElseThrow().segments() > 1) {
                    cursorsExpected.merge(line.skuId(), 1L, Long::sum);
                }
            }
        }
    }

    private void move(String name, ReservationId id, BiPredicate<ReservationTransitionsPort, ReservationId> move) {
        operation = name + " " + id;
        String expected = outcomeOf(() -> move.test(model, id));
        String actual = outcomeOf(() -> move.test(redis, id));
        assertThat(actual).as(where()).isEqualTo(expected);
        seen.add(name + "=" + expected);
        // Settled: a confirm, or a release that is not the buyer's (the pipeline's). A buyer's cancel and a FAILED one
        // stay in the index until reconciliation finds them settled in MySQL.
        if (expected.equals("true") && (name.equals("confirm") || name.equals("release"))) {
            inFlightExpected.remove(id.value());
        }
    }

    /** "true", "false", or "refused" when the store refused a move that would take a counter below zero. */
    private static String outcomeOf(BooleanSupplier move) {
        return resultOf(move::getAsBoolean);
    }

    /** The move's answer as text, or "refused" when the store refused a move that would take a counter below zero. */
    private static String resultOf(Supplier<?> move) {
        try {
            return String.valueOf(move.get());
        } catch (IllegalStockMoveException refused) {
            return "refused";
        }
    }

    private void adjust() {
        SkuId sku = random.nextInt(4) == 0 ? GHOST : pick(activity.items()).skuId();
        long delta = random.nextInt(9) - 4;
        long adjustmentId = 1 + random.nextInt(6);
        operation = "adjust " + sku + " by " + delta + " as #" + adjustmentId;
        LedgerAdjustment expected = model.adjust(activity.id(), sku, delta, adjustmentId);
        assertThat(redisAdjustments.adjust(activity.id(), sku, delta, adjustmentId)).as(where()).isEqualTo(expected);
        seen.add("adjust=" + expected.getClass().getSimpleName());
    }

    /**
     * A repair of one SKU from each store's own look, now and then from a look before later moves (stale): the figures
     * move a little and one buyer's holding is rewritten, so that later moves may find counters that refuse them.
     */
    private void repair() {
        SkuId sku = pick(activity.items()).skuId();
        Optional<HotSkuSnapshot> modelLook = model.snapshot(activity.id()).flatMap(look -> look.sku(sku));
        Optional<HotSkuSnapshot> redisLook = redisHot.snapshot(activity.id()).flatMap(look -> look.sku(sku));
        boolean stale = random.nextInt(3) == 0 && staleVersions.containsKey(sku);
        String modelVersion = stale ? staleVersions.get(sku) : modelLook.map(HotSkuSnapshot::version).orElse("-");
        String redisVersion = stale ? staleVersions.get(redisKeyOf(sku)) : redisLook.map(HotSkuSnapshot::version).orElse("-");
        modelLook.ifPresent(look -> staleVersions.put(sku, look.version()));
        redisLook.ifPresent(look -> staleVersions.put(redisKeyOf(sku), look.version()));
        LedgerFigures now = modelLook.map(HotSkuSnapshot::figures).orElse(LedgerFigures.ZERO);
        long available = Math.max(0, now.available() + random.nextInt(5) - 2);
        // Now and then fewer reserved or sold units than the reservations account for: later moves must be refused.
        long reserved = Math.max(0, now.reserved() - random.nextInt(2));
        long sold = Math.max(0, now.sold() - random.nextInt(2));
        LedgerFigures target = new LedgerFigures(reserved + sold + available, reserved, sold, available);
        Map<BuyerId, Long> holdings = Map.of(pick(BUYERS), (long) random.nextInt(2));
        ActivityItem item = activity.item(sku).orElseThrow();
        int limit = activity.limitFor(item).max();
        operation = "repair " + sku + " to " + target + " " + holdings + (stale ? " from a stale look" : "");
        LedgerRepairResult expected = model.repair(activity.id(),
                new LedgerRepair(sku, target, holdings, Set.of(), modelVersion, item.segments(), limit));
        LedgerRepairResult actual = redisHot.repair(activity.id(),
                new LedgerRepair(sku, target, holdings, Set.of(), redisVersion, item.segments(), limit));
        assertThat(actual).as(where()).isEqualTo(expected);
        seen.add("repair=" + expected + (stale ? "/stale" : ""));
    }

    /** The key under which Redis's stale version of a SKU is kept beside the model's. */
    private static SkuId redisKeyOf(SkuId sku) {
        return new SkuId("redis-" + sku.value());
    }

    /**
     * Redis lost the activity, wholly or only its meta and ledger (the records, holdings, request index and a relayed
     * outbox survive); both stores rebuild it in pages from the same made-up orders of the shop's books.
     */
    private void rebuild() {
        boolean partial = random.nextBoolean();
        if (partial) {
            relayTheOutbox();
            commands.del(RedisKeys.meta(activity.id()), RedisKeys.stock(activity.id()));
        } else {
            SharedRedis.forget(activity.id());
        }
        model = new InMemoryStockReservations();
        List<SkuRebuild> totals = new ArrayList<>();
        List<Order> orders = new ArrayList<>();
        for (ActivityItem item : activity.items()) {
            long total = random.nextInt(12);
            totals.add(new SkuRebuild(item.skuId(), total, 0, Map.of(), Set.of(1L + random.nextInt(6))));
            long left = total;
            for (int n = random.nextInt(4); n > 0; n--) {
                ReservationStatus status = pick(List.of(ReservationStatus.ORDERED, ReservationStatus.PAID,
                        ReservationStatus.EXPIRED, ReservationStatus.CANCELLED, ReservationStatus.FAILED));
                boolean holds = status == ReservationStatus.ORDERED || status == ReservationStatus.PAID;
                int quantity = 1 + random.nextInt(3);
                if (holds && quantity > left) {
                    continue;
                }
                left -= holds ? quantity : 0;
                orders.add(madeUpOrder(orders.size(), item.skuId(), quantity, status));
            }
        }
        orders.sort((x, y) -> x.id().value().compareTo(y.id().value()));
        operation = "rebuild (" + (partial ? "partial" : "whole") + " loss) " + totals + " from " + orders;
        RebuildStart redisStart = redisRebuild.beginRebuild(activity.id(), BASE);
        RebuildStart modelStart = model.beginRebuild(activity.id(), BASE);
        assertThat(redisStart).as(where()).isInstanceOf(RebuildStart.Started.class);
        assertThat(modelStart).as(where()).isInstanceOf(RebuildStart.Started.class);
        String redisId = ((RebuildStart.Started) redisStart).rebuildId();
        String modelId = ((RebuildStart.Started) modelStart).rebuildId();
        Optional<ReservationId> after = Optional.empty();
        for (int from = 0; from < orders.size(); from += 2) {
            List<Order> page = orders.subList(from, Math.min(from + 2, orders.size()));
            ReservationId last = page.getLast().id();
            assertThat(redisRebuild.rebuildPage(activity.id(), redisId, after, last, page)).as(where()).isTrue();
            assertThat(model.rebuildPage(activity.id(), modelId, after, last, page)).as(where()).isTrue();
            after = Optional.of(last);
        }
        assertThat(redisRebuild.finishRebuild(activity, redisId, totals)).as(where())
                .isEqualTo(model.finishRebuild(activity, modelId, totals));
        known.clear();
        orderOf.clear();
        inFlightExpected.clear();
        outboxExpected.clear();
        requestsExpected.clear();
        cursorsExpected.clear();
        for (Order order : orders) {
            known.add(order.id());
            orderOf.put(order.id(), order.toReservation());
            requestsExpected.put(RedisKeys.requestField(order.buyerId(), order.requestId()),
                    RedisKeys.requestValue(order.id(), order.requestId()));
        }
        seen.add(partial ? "rebuild/partial" : "rebuild");
    }

    /** What the order pipeline's relays do before a rebuild may begin: every outbox entry read and acknowledged. */
    private void relayTheOutbox() {
        String outbox = RedisKeys.outbox(activity.id());
        if (commands.exists(outbox) == 0) {
            return;
        }
        try {
            commands.xgroupCreate(XReadArgs.StreamOffset.from(outbox, "0-0"), RedisKeys.OUTBOX_GROUP);
        } catch (RedisCommandExecutionException error) {
            if (!String.valueOf(error.getMessage()).startsWith("BUSYGROUP")) {
                throw error;
            }
        }
        List<StreamMessage<String, String>> read = commands.xreadgroup(
                Consumer.from(RedisKeys.OUTBOX_GROUP, "walk"), XReadArgs.StreamOffset.lastConsumed(outbox));
        if (!read.isEmpty()) {
            commands.xack(outbox, RedisKeys.OUTBOX_GROUP, read.stream().map(StreamMessage::getId).toArray(String[]::new));
        }
    }

    private Order madeUpOrder(int index, SkuId sku, int quantity, ReservationStatus status) {
        Instant at = BASE.plusMillis(random.nextInt(100_000));
        boolean failed = status == ReservationStatus.FAILED;
        boolean closed = status != ReservationStatus.ORDERED && !failed;
        // MySQL's unique request key: one order per buyer and request, so every made-up order has a request of its own.
        return new Order(ReservationId.of(activity.id(), "o" + step + "x" + random.nextInt(1000) + "n" + index),
                pick(BUYERS), new RequestId("r" + step + "n" + index), List.of(new ReservationLine(sku, quantity)), status,
                failed ? OrderRefusal.OUT_OF_STOCK : null, at, at, failed ? null : at, closed ? at : null);
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
        List<String> outbox = commands.xrange(RedisKeys.outbox(activityId), Range.create("-", "+")).stream()
                .flatMap(entry -> OutboxEntryDecoder.reservationIds(entry.getBody()).stream()).toList();
        assertThat(outbox).as(where() + " outbox").isEqualTo(outboxExpected);
        assertThat(RedisRequestIndex.entries(commands, activityId)).as(where() + " request index")
                .isEqualTo(requestsExpected);
        compareInFlightIndex(activityId);
        if (redis.stock(activityId).isEmpty()) {
            return;
        }
        compareHeldSums(activityId);
        comparePagedLook(activityId);
        for (ActivityItem item : activity.items()) {
            for (int s = 1; s <= item.segments(); s++) {
                String segment = commands.hget(RedisKeys.stock(activityId), RedisKeys.segmentField(item.skuId(), s));
                assertThat(segment).as(where() + " segment " + s + " of " + item.skuId()).isNotNull();
                assertThat(Long.parseLong(segment)).as(where() + " segment " + s + " of " + item.skuId())
                        .isNotNegative();
            }
            if (item.segments() > 1) {
                String cursor = commands.hget(RedisKeys.stock(activityId), RedisKeys.stockField(item.skuId(), "cursor"));
                assertThat(cursor == null ? 0L : Long.parseLong(cursor)).as(where() + " cursor of " + item.skuId())
                        .isEqualTo(cursorsExpected.getOrDefault(item.skuId(), 0L));
            }
        }
    }

    /**
     * The index against the walk's own account, and against a recount of the records: every RESERVED reservation is
     * listed, and nothing listed is in a status MySQL has settled for sure.
     */
    private void compareInFlightIndex(ActivityId activityId) {
        Set<String> index = commands.hgetall(RedisKeys.inFlight(activityId)).keySet();
        assertThat(index).as(where() + " in-flight index").isEqualTo(inFlightExpected);
        for (ReservationId id : known) {
            Optional<ReservationStatus> status = model.findReservation(id).map(Reservation::status);
            if (status.equals(Optional.of(ReservationStatus.RESERVED))) {
                assertThat(index).as(where() + " RESERVED " + id + " in the in-flight index").contains(id.value());
            }
            if (index.contains(id.value())) {
                assertThat(status).as(where() + " status of " + id + " in the in-flight index")
                        .hasValueSatisfying(listed -> assertThat(listed).isIn(ReservationStatus.RESERVED,
                                ReservationStatus.FAILED, ReservationStatus.CANCELLED));
                if (status.orElseThrow() == ReservationStatus.CANCELLED) {
                    assertThat(model.cancelledAt(id)).as(where() + " " + id + " listed: cancelled by the buyer").isPresent();
                }
            }
        }
    }

    /** Each SKU's sum of holdings against a recount of the holdings hash. */
    private void compareHeldSums(ActivityId activityId) {
        Map<String, String> holdings = commands.hgetall(RedisKeys.holdings(activityId));
        for (ActivityItem item : activity.items()) {
            String suffix = ":" + item.skuId().value();
            long recount = holdings.entrySet().stream().filter(entry -> entry.getKey().endsWith(suffix))
                    .mapToLong(entry -> Long.parseLong(entry.getValue())).sum();
            String held = commands.hget(RedisKeys.stock(activityId), RedisKeys.stockField(item.skuId(), "held"));
            assertThat(held).as(where() + " sum of holdings of " + item.skuId()).isEqualTo(Long.toString(recount));
        }
    }

    /**
     * The paged look (index, sum of holdings, no holdings) sees what the atomic one does, but the ORDERED records it
     * leaves out; reading the holdings afterwards gives the atomic look's holdings.
     */
    private void comparePagedLook(ActivityId activityId) {
        HotStoreSnapshot atomic = redisHot.snapshot(activityId).orElseThrow();
        HotStoreSnapshot paged = redisHot.pagedSnapshot(activityId).orElseThrow();
        for (ActivityItem item : activity.items()) {
            HotSkuSnapshot whole = atomic.sku(item.skuId()).orElseThrow();
            HotSkuSnapshot light = paged.sku(item.skuId()).orElseThrow();
            assertThat(light.holdingsRead()).as(where() + " paged look reads no holdings").isFalse();
            assertThat(light.figures()).as(where() + " paged figures of " + item.skuId()).isEqualTo(whole.figures());
            assertThat(light.heldUnits()).as(where() + " paged sum of holdings of " + item.skuId())
                    .isEqualTo(whole.heldUnits());
            assertThat(light.reservations()).as(where() + " paged reservations of " + item.skuId())
                    .containsExactlyInAnyOrderElementsOf(whole.reservations().stream()
                            .filter(held -> held.status() != ReservationStatus.ORDERED)
                            .filter(held -> inFlightExpected.contains(held.id().value())).toList());
            HotSkuSnapshot withHoldings = redisHot.withHoldings(activityId, light);
            assertThat(withHoldings.holdings()).as(where() + " holdings read after the paged look")
                    .isEqualTo(whole.holdings());
            assertThat(withHoldings.version()).as(where() + " version after reading holdings").isEqualTo(whole.version());
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
