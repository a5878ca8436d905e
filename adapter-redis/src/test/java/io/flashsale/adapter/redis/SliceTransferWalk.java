package io.flashsale.adapter.redis;

import io.flashsale.application.slice.port.out.SliceStockPort;
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
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One seeded random walk of stock transfers among the three slices of a sale, each step compared with a model of the
 * slices: transfers opened and carried on in any order (a step may wait while others run, as a crashed runner's does
 * until the sweep), either step repeated at any time (a retry after a crash), buyers reserving and releasing on slice 0
 * meanwhile. After every step each slice's ledger is the model's, total = reserved + sold + available with no segment
 * below zero, and the slices' totals plus the units in transit (taken, not credited yet) are the sale's units.
 */
final class SliceTransferWalk {

    private static final SaleSlices THREE = new SaleSlices(3);
    private static final List<ActivityItem> ITEMS = List.of(ActivityItem.of("plain", 40),
            new ActivityItem(new SkuId("split"), 23, null, 3));

    private final long seed;
    private final SplittableRandom random;
    private final SliceStockPort port;
    private final RedisStockReservationAdapter reservations;
    private final SliceFixture fixture;
    private final Set<String> seen;
    private final Activity sale;
    private final List<SaleSlice> slices;
    /** The model: per slice and SKU (item order) the units of the ledger. */
    private final long[][] total = new long[3][ITEMS.size()];
    private final long[][] reserved = new long[3][ITEMS.size()];
    private final List<Transfer> transfers = new ArrayList<>();
    private final List<Held> held = new ArrayList<>();
    private int step;
    private String operation = "warm-up";

    /** A transfer as the database of record would hold it: what the take answered, whether the credit was made. */
    private static final class Transfer {
        final long id;
        final int sku;
        final int from;
        final int to;
        final long units;
        Long taken;
        boolean credited;

        Transfer(long id, int sku, int from, int to, long units) {
            this.id = id;
            this.sku = sku;
            this.from = from;
            this.to = to;
            this.units = units;
        }

        boolean inTransit() {
            return taken != null && !credited;
        }
    }

    private record Held(ReservationId id, int sku, int units) {
    }

    SliceTransferWalk(long seed, RedisClusterCommands<String, String> redis, RedisStockReservationAdapter reservations,
                      Set<String> seen) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.port = new RedisSliceStock(redis, activityId -> { });
        this.reservations = reservations;
        this.fixture = new SliceFixture(redis);
        this.seen = seen;
        Instant now = Instant.now();
        this.sale = new Activity(new ActivityId("walk-" + UUID.randomUUID().toString().substring(0, 12)), "walk",
                now.minusSeconds(60), now.plus(Duration.ofHours(1)), new PurchaseLimit(3), Duration.ofMinutes(15),
                ITEMS, false, THREE);
        this.slices = SliceFixture.slicesOf(sale);
    }

    ActivityId activityId() {
        return sale.id();
    }

    void forget() {
        fixture.forget(sale);
    }

    void run(int steps) {
        try {
            fixture.warmUp(sale);
            for (int k = 0; k < 3; k++) {
                for (int sku = 0; sku < ITEMS.size(); sku++) {
                    total[k][sku] = THREE.shareOf(k, ITEMS.get(sku).stock());
                }
            }
            check();
            for (step = 1; step <= steps; step++) {
                next();
                check();
            }
            operation = "finish every transfer";
            for (Transfer transfer : transfers) {
                if (transfer.taken == null) {
                    take(transfer);
                }
                if (!transfer.credited) {
                    credit(transfer);
                }
            }
            check();
        } catch (AssertionError | RuntimeException failed) {
            throw new AssertionError("seed " + seed + ", step " + step + " (" + operation + "); replay with "
                    + "-Dflashsale.seed=" + seed, failed);
        }
    }

    private void next() {
        int roll = random.nextInt(100);
        List<Transfer> unfinished = transfers.stream().filter(transfer -> !transfer.credited).toList();
        List<Transfer> started = transfers.stream().filter(transfer -> transfer.taken != null).toList();
        if (roll < 25 || unfinished.isEmpty()) {
            open();
        } else if (roll < 60) {
            Transfer transfer = pick(unfinished);
            if (transfer.taken == null) {
                take(transfer);
            } else {
                credit(transfer);
            }
        } else if (roll < 80 && !started.isEmpty()) {
            repeat(pick(started));
        } else if (roll < 92 || held.isEmpty()) {
            reserve();
        } else {
            release(held.remove(random.nextInt(held.size())));
        }
    }

    /** A transfer recorded and not carried on yet: its steps come later, among others'. */
    private void open() {
        int from = random.nextInt(3);
        int to = (from + 1 + random.nextInt(2)) % 3;
        Transfer transfer = new Transfer(transfers.size() + 1L, random.nextInt(ITEMS.size()), from, to,
                1 + random.nextInt(15));
        transfers.add(transfer);
        operation = "open " + describe(transfer);
    }

    private void take(Transfer transfer) {
        operation = "take " + describe(transfer);
        long available = total[transfer.from][transfer.sku] - reserved[transfer.from][transfer.sku];
        long expected = Math.min(transfer.units, available);

        OptionalLong taken = port.take(slices.get(transfer.from), sku(transfer.sku), transfer.id, transfer.units);

        assertThat(taken).hasValue(expected);
        transfer.taken = expected;
        total[transfer.from][transfer.sku] -= expected;
        seen.add(expected == transfer.units ? "take=all" : expected == 0 ? "take=none" : "take=part");
    }

    private void credit(Transfer transfer) {
        operation = "credit " + describe(transfer);

        assertThat(port.credit(slices.get(transfer.to), sku(transfer.sku), transfer.id, transfer.taken)).isTrue();

        transfer.credited = true;
        total[transfer.to][transfer.sku] += transfer.taken;
        seen.add("credit");
    }

    /** A step made again, as a runner that crashed before the database heard its answer makes it: nothing moves. */
    private void repeat(Transfer transfer) {
        if (transfer.credited && random.nextBoolean()) {
            operation = "credit again " + describe(transfer);
            assertThat(port.credit(slices.get(transfer.to), sku(transfer.sku), transfer.id, transfer.taken)).isTrue();
            seen.add("credit again");
            return;
        }
        operation = "take again " + describe(transfer);
        assertThat(port.take(slices.get(transfer.from), sku(transfer.sku), transfer.id, transfer.units))
                .hasValue(transfer.taken);
        seen.add(transfer.credited ? "take again after credit" : "take again in transit");
    }

    /** A buyer reserves in slice 0 (the id names it), so takes meet reserved units. */
    private void reserve() {
        int sku = random.nextInt(ITEMS.size());
        int units = 1 + random.nextInt(3);
        operation = "reserve " + units + " of " + sku(sku).value() + " on slice 0";
        var id = ReservationId.of(slices.getFirst(), UUID.randomUUID().toString().replace("-", ""));
        ReservationOutcome outcome = reservations.reserve(new ReservationRequest(id, new BuyerId("b" + step),
                new RequestId("k" + step), List.of(new ReservationLine(sku(sku), units)), Instant.now()));
        boolean enough = total[0][sku] - reserved[0][sku] >= units;

        assertThat(outcome instanceof ReservationOutcome.Reserved).as("%s", outcome).isEqualTo(enough);
        if (enough) {
            reserved[0][sku] += units;
            held.add(new Held(id, sku, units));
        }
        seen.add(enough ? "reserve" : "reserve refused");
    }

    private void release(Held reservation) {
        operation = "release " + reservation;
        assertThat(reservations.release(reservation.id())).isTrue();
        reserved[0][reservation.sku()] -= reservation.units();
        seen.add("release");
    }

    private void check() {
        for (int sku = 0; sku < ITEMS.size(); sku++) {
            long inTransit = 0;
            for (Transfer transfer : transfers) {
                if (transfer.sku == sku && transfer.inTransit()) {
                    inTransit += transfer.taken;
                }
            }
            long totals = 0;
            for (int k = 0; k < 3; k++) {
                totals += checkedTotal(k, sku);
            }
            assertThat(totals + inTransit).as("%s over the slices and in transit", sku(sku))
                    .isEqualTo(ITEMS.get(sku).stock());
        }
    }

    /** The SKU's total on slice k, once its ledger is the model's, adds up and has no segment below zero. */
    private long checkedTotal(int k, int sku) {
        SaleSlice slice = slices.get(k);
        StockLedger ledger = fixture.ledger(slice, sku(sku));
        assertThat(ledger).as("slice %d, %s", k, sku(sku))
                .isEqualTo(new StockLedger(total[k][sku], reserved[k][sku], 0));
        assertThat(ledger.reserved() + ledger.sold() + ledger.available()).isEqualTo(ledger.total());
        assertThat(fixture.segments(slice, sku(sku))).allSatisfy(units -> assertThat(units)
                .as("a segment of %s on slice %d", sku(sku), k).isNotNegative());
        return ledger.total();
    }

    private <T> T pick(List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    private static SkuId sku(int index) {
        return ITEMS.get(index).skuId();
    }

    private static String describe(Transfer transfer) {
        return "#" + transfer.id + " " + transfer.units + " of " + sku(transfer.sku).value() + " " + transfer.from
                + "->" + transfer.to + (transfer.taken == null ? "" : ", taken " + transfer.taken);
    }
}
