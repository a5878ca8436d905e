package io.flashsale.domain.order;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderAllocation.Decision;
import io.flashsale.domain.order.OrderAllocation.PurchaseKey;
import io.flashsale.domain.order.OrderAllocation.Result;
import io.flashsale.domain.order.OrderAllocation.SkuKey;
import io.flashsale.domain.order.OrderAllocation.SkuTerms;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderAllocationTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final ActivityId OTHER_SALE = new ActivityId("sale-2");
    private static final Instant AT = Instant.parse("2026-11-11T00:00:00Z");

    private int tokens;

    @Test
    void givenStockForThreeOfFive_whenAllocated_thenTheFirstThreeInBatchOrderArePlacedAndTheRestOutOfStock() {
        List<Reservation> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batch.add(reservation(SALE, "buyer-" + i, line("a", 1)));
        }

        Result result = OrderAllocation.allocate(batch, Map.of(sku(SALE, "a"), new SkuTerms(3, 1)), Map.of());

        assertThat(result.placed()).containsExactlyElementsOf(batch.subList(0, 3));
        assertThat(result.refused()).extracting(Decision.Refuse::reason)
                .containsExactly(OrderRefusal.OUT_OF_STOCK, OrderRefusal.OUT_OF_STOCK);
        assertThat(result.soldBySku()).isEqualTo(Map.of(sku(SALE, "a"), 3L));
    }

    @Test
    void givenTwoReservationsOfOneBuyerThatTogetherPassTheLimit_whenAllocated_thenTheSecondIsRefusedOverTheLimit() {
        Reservation first = reservation(SALE, "alice", line("a", 2));
        Reservation second = reservation(SALE, "alice", line("a", 2));
        PurchaseKey alice = new PurchaseKey(SALE, new BuyerId("alice"), new SkuId("a"));

        Result result = OrderAllocation.allocate(List.of(first, second), Map.of(sku(SALE, "a"), new SkuTerms(10, 3)),
                Map.of(alice, 0L));

        assertThat(result.decisions()).containsExactly(new Decision.Place(first),
                new Decision.Refuse(second, OrderRefusal.LIMIT_EXCEEDED));
        assertThat(result.purchaseAdded()).isEqualTo(Map.of(alice, 2L));
    }

    @Test
    void givenAMultiSkuReservationThatFailsOnOneLine_whenAllocated_thenItTakesNothingAndTheNextOneStillGetsTheOtherSku() {
        Reservation both = reservation(SALE, "alice", line("b", 1), line("a", 1));
        Reservation onlyA = reservation(SALE, "bob", line("a", 1));
        Map<SkuKey, SkuTerms> skus = Map.of(sku(SALE, "a"), new SkuTerms(1, 1), sku(SALE, "b"), new SkuTerms(0, 1));

        Result result = OrderAllocation.allocate(List.of(both, onlyA), skus, Map.of());

        assertThat(result.decisions()).containsExactly(new Decision.Refuse(both, OrderRefusal.OUT_OF_STOCK),
                new Decision.Place(onlyA));
        assertThat(result.soldBySku()).isEqualTo(Map.of(sku(SALE, "a"), 1L));
        assertThat(result.purchaseAdded()).containsOnlyKeys(new PurchaseKey(SALE, new BuyerId("bob"), new SkuId("a")));
    }

    @Test
    void givenASkuTheSaleDoesNotOffer_whenAllocated_thenUnknownItemBeforeAnyLimitOrStockIsWeighed() {
        Reservation unknown = reservation(SALE, "alice", line("a", 5), line("zz", 1));

        Result result = OrderAllocation.allocate(List.of(unknown), Map.of(sku(SALE, "a"), new SkuTerms(0, 1)), Map.of());

        assertThat(result.decisions()).containsExactly(new Decision.Refuse(unknown, OrderRefusal.UNKNOWN_ITEM));
        assertThat(result.soldBySku()).isEmpty();
    }

    @Test
    void givenTwoSalesWithTheSameSkuName_whenAllocated_thenEachSaleHasItsOwnStock() {
        Reservation here = reservation(SALE, "alice", line("a", 1));
        Reservation there = reservation(OTHER_SALE, "alice", line("a", 1));
        Map<SkuKey, SkuTerms> skus = Map.of(sku(SALE, "a"), new SkuTerms(1, 1), sku(OTHER_SALE, "a"), new SkuTerms(1, 1));

        Result result = OrderAllocation.allocate(List.of(here, there), skus, Map.of());

        assertThat(result.placed()).containsExactly(here, there);
    }

    @Test
    void givenTheSameReservationTwice_whenAllocated_thenRefusedAsAProgrammingError() {
        Reservation once = reservation(SALE, "alice", line("a", 1));

        assertThatThrownBy(() -> OrderAllocation.allocate(List.of(once, once),
                Map.of(sku(SALE, "a"), new SkuTerms(5, 5)), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The batch decision must be the serial one: for random batches (few SKUs, tight stock and limits, buyers that
     * come back, unknown SKUs), allocating the batch at once gives the same decisions and the same final books as
     * an independent one-at-a-time placement that updates its books after each reservation, as the per-order
     * transaction did. Seeds are printed in the failure message so a failure replays.
     */
    @Test
    void givenRandomBatches_whenAllocatedAtOnce_thenTheSameAsPlacingThemOneByOne() {
        long baseSeed = 20261201L;
        for (int round = 0; round < 2_000; round++) {
            long seed = baseSeed + round;
            Random random = new Random(seed);
            Map<SkuKey, SkuTerms> skus = new HashMap<>();
            List<SkuId> names = new ArrayList<>();
            int skuCount = 1 + random.nextInt(4);
            for (int s = 0; s < skuCount; s++) {
                SkuId name = new SkuId("s" + s);
                names.add(name);
                skus.put(new SkuKey(SALE, name), new SkuTerms(random.nextInt(12), 1 + random.nextInt(4)));
            }
            names.add(new SkuId("unknown"));
            Map<PurchaseKey, Long> purchased = new HashMap<>();
            List<Reservation> batch = new ArrayList<>();
            int size = 1 + random.nextInt(40);
            for (int i = 0; i < size; i++) {
                String buyer = "b" + random.nextInt(6);
                List<SkuId> shuffled = new ArrayList<>(names.subList(0, skuCount));
                if (random.nextInt(15) == 0) {
                    shuffled.add(names.getLast());
                }
                Collections.shuffle(shuffled, random);
                List<ReservationLine> lines = new ArrayList<>();
                for (SkuId name : shuffled.subList(0, 1 + random.nextInt(shuffled.size()))) {
                    lines.add(new ReservationLine(name, 1 + random.nextInt(3)));
                }
                batch.add(reservation(SALE, buyer, lines.toArray(ReservationLine[]::new)));
                if (random.nextBoolean()) {
                    purchased.put(new PurchaseKey(SALE, new BuyerId(buyer), lines.getFirst().skuId()),
                            (long) random.nextInt(3));
                }
            }

            Result atOnce = OrderAllocation.allocate(batch, skus, purchased);
            OneByOne serial = new OneByOne(skus, purchased);
            List<Decision> oneByOne = batch.stream().map(serial::place).toList();

            assertThat(atOnce.decisions()).as("seed %d", seed).isEqualTo(oneByOne);
            assertThat(atOnce.soldBySku()).as("seed %d", seed).isEqualTo(serial.soldSinceStart());
            assertThat(atOnce.purchaseAdded()).as("seed %d", seed).isEqualTo(serial.purchasedSinceStart());
        }
    }

    /**
     * The per-order placement as the database ran it before batches: per line in SKU order, the guarded purchase
     * add, then the guarded stock add, each applied at once; a refusal rolls the whole reservation back.
     */
    private static final class OneByOne {

        private final Map<SkuKey, SkuTerms> terms;
        private final Map<SkuKey, Long> sold = new HashMap<>();
        private final Map<PurchaseKey, Long> purchases;
        private final Map<PurchaseKey, Long> start;

        OneByOne(Map<SkuKey, SkuTerms> terms, Map<PurchaseKey, Long> purchased) {
            this.terms = terms;
            this.purchases = new HashMap<>(purchased);
            this.start = Map.copyOf(purchased);
        }

        Decision place(Reservation reservation) {
            if (reservation.lines().stream().anyMatch(l -> !terms.containsKey(new SkuKey(SALE, l.skuId())))) {
                return new Decision.Refuse(reservation, OrderRefusal.UNKNOWN_ITEM);
            }
            Map<SkuKey, Long> soldBefore = new HashMap<>(sold);
            Map<PurchaseKey, Long> purchasesBefore = new HashMap<>(purchases);
            for (ReservationLine line : reservation.lines().stream().sorted(OrderAllocation.LINE_ORDER).toList()) {
                SkuKey sku = new SkuKey(SALE, line.skuId());
                PurchaseKey key = new PurchaseKey(SALE, reservation.buyerId(), line.skuId());
                long held = purchases.getOrDefault(key, 0L);
                OrderRefusal refusal = null;
                if (held + line.quantity() > terms.get(sku).limit()) {
                    refusal = OrderRefusal.LIMIT_EXCEEDED;
                } else {
                    purchases.put(key, held + line.quantity());
                    long soldNow = sold.getOrDefault(sku, 0L);
                    if (terms.get(sku).remaining() - soldNow < line.quantity()) {
                        refusal = OrderRefusal.OUT_OF_STOCK;
                    } else {
                        sold.put(sku, soldNow + line.quantity());
                    }
                }
                if (refusal != null) {
                    sold.clear();
                    sold.putAll(soldBefore);
                    purchases.clear();
                    purchases.putAll(purchasesBefore);
                    return new Decision.Refuse(reservation, refusal);
                }
            }
            return new Decision.Place(reservation);
        }

        Map<SkuKey, Long> soldSinceStart() {
            Map<SkuKey, Long> taken = new LinkedHashMap<>(sold);
            taken.values().removeIf(units -> units == 0);
            return taken;
        }

        Map<PurchaseKey, Long> purchasedSinceStart() {
            Map<PurchaseKey, Long> added = new LinkedHashMap<>();
            purchases.forEach((key, units) -> {
                long more = units - start.getOrDefault(key, 0L);
                if (more != 0) {
                    added.put(key, more);
                }
            });
            return added;
        }
    }

    private Reservation reservation(ActivityId sale, String buyer, ReservationLine... lines) {
        String token = "t" + (++tokens);
        return new Reservation(ReservationId.of(sale, token), sale, new BuyerId(buyer), new RequestId("r-" + token),
                List.of(lines), ReservationStatus.RESERVED, AT);
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    private static SkuKey sku(ActivityId sale, String sku) {
        return new SkuKey(sale, new SkuId(sku));
    }
}
