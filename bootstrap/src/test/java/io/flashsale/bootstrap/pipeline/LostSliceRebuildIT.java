package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One slice of a sale in slices lost by Redis and rebuilt through the service from MySQL (ADR 111): the other slices
 * sell on meanwhile, the rebuilt slice holds its allotment, its buyers' holdings and their request keys again, and
 * the sale then sells exactly its stock; a stock transfer the loss caught half done counts its units once, whichever
 * step reached the slice before the loss and whichever reaches it late. The transfer sweep and the rebalancer are held
 * off (their job locks taken), so only the test moves stock.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LostSliceRebuildIT extends PipelineTestBase {

    private static final int SLICES = 3;
    /** 10 units a slice. */
    private static final long UNITS = 30;
    private static final int LIMIT = 2;
    private static final SkuId SKU_ID = new SkuId(SKU);

    final StatefulRedisConnection<String, String> redis = TestRedis.connection();

    @Autowired
    StockTransfersPort transferRows;
    @Autowired
    SliceStockPort slices;

    @BeforeEach
    void holdOffTheTransferJobs() throws InterruptedException {
        holdOffTransferJobs("LostSliceRebuildIT");
    }

    @AfterEach
    void releaseTheTransferJobs() {
        releaseTransferJobs("LostSliceRebuildIT");
    }

    @Test
    void givenOneSliceLost_whenReconciled_thenItIsRebuiltFromItsOrders_andTheSaleSellsExactlyItsStock()
            throws Exception {
        String id = slicedSale(UNITS, LIMIT, SLICES);
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int k = 0; k < SLICES; k++) {
            accepted.putAll(buyOneEach(id, buyersHomedIn(SLICES, k, 4, 0)));
        }
        awaitExactlyOneOrderEach(id, UNITS, accepted);
        int lost = 1;
        Map<Integer, StockLedger> before = ledgers(id);

        loseSlice(slice(id, lost));

        String lostBuyer = buyersHomedIn(SLICES, lost, 1, 0).getFirst();
        ServiceClient.Reply refused = reserve(id, lostBuyer, "k1", 1);
        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.json().path("code").asString()).isEqualTo("NOT_READY");
        ServiceClient.Reply elsewhere = reserve(id, buyersHomedIn(SLICES, 0, 1, 4).getFirst(), "k0", 1);
        assertThat(elsewhere.status()).as("the other slices sell on: " + elsewhere.body()).isEqualTo(202);
        accepted.put(elsewhere.json().path("reservationId").asString(), buyersHomedIn(SLICES, 0, 1, 4).getFirst());

        // The rebuild waits until what the broker held when it was asked has become orders (ADR 30).
        JsonNode reconciliation = rebuiltByReconciliation(id);

        assertThat(reconciliation.path("hotStore").asString()).as(reconciliation.toString()).isEqualTo("REBUILT");
        assertThat(reconciliation.path("reports").valueStream().map(report -> report.path("action").asString())
                .toList()).as(reconciliation.toString()).containsOnly("NONE");
        assertThat(ledger(id, lost)).as("the lost slice as it was").isEqualTo(before.get(lost));
        ServiceClient.Reply replay = reserve(id, lostBuyer, "k0", 1);
        assertThat(replay.json().path("reservationId").asString()).as("a keyed retry finds its order: " + replay.body())
                .isEqualTo(reservationOf(accepted, lostBuyer));
        ServiceClient.Reply overLimit = reserve(id, lostBuyer, "k2", 2);
        assertThat(overLimit.json().path("code").asString()).as("the holding counts: " + overLimit.body())
                .isEqualTo("LIMIT_EXCEEDED");

        for (int k = 0; k < SLICES; k++) {
            accepted.putAll(buyOneEach(id, buyersHomedIn(SLICES, k, (int) ledger(id, k).available(), 10)));
        }
        ServiceClient.Reply soldOut = reserve(id, buyersHomedIn(SLICES, lost, 1, 40).getFirst(), "k0", 1);
        assertThat(soldOut.json().path("code").asString()).as(soldOut.body()).isEqualTo("SOLD_OUT");
        assertThat(accepted).hasSize((int) UNITS);
        awaitExactlyOneOrderEach(id, UNITS, accepted);
    }

    @Test
    void givenATransferCreditedToTheSliceBeforeItWasLost_whenRebuilt_thenItsUnitsCountOnce_andALateCreditAddsNone()
            throws Exception {
        String id = slicedSale(UNITS, LIMIT, SLICES);
        ActivityId activity = new ActivityId(id);
        // A runner that died after the target's step: the row still says TAKEN, slice 1 holds the 5 units.
        StockTransfer requested = transferRows.open(activity, SKU_ID, 0, 1, 5, Instant.now());
        assertThat(slices.take(slice(id, 0), SKU_ID, requested.id(), 5)).hasValue(5);
        StockTransfer taken = requested.taken(5);
        assertThat(transferRows.advance(requested, taken)).isTrue();
        assertThat(slices.credit(slice(id, 1), SKU_ID, requested.id(), 5)).isTrue();

        loseSlice(slice(id, 1));
        assertThat(rebuiltByReconciliation(id).path("hotStore").asString()).isEqualTo("REBUILT");

        assertThat(transferRows.findById(requested.id()).orElseThrow().state()).isEqualTo(TransferState.DONE);
        assertThat(ledger(id, 1).total()).as("its share and the units that arrived").isEqualTo(15);
        assertThat(slices.credit(slice(id, 1), SKU_ID, requested.id(), 5)).as("a late credit").isTrue();
        assertThat(ledger(id, 1).total()).as("the late credit added nothing").isEqualTo(15);
        assertThat(ledger(id, 0).total() + ledger(id, 1).total() + ledger(id, 2).total()).as("every unit once")
                .isEqualTo(UNITS);
    }

    @Test
    void givenATransferTheSliceGaveThatTheDatabaseNeverHeardOf_whenRebuilt_thenTheUnitsStay_andALateTakeTakesNone()
            throws Exception {
        String id = slicedSale(UNITS, LIMIT, SLICES);
        ActivityId activity = new ActivityId(id);
        // A runner that died after the source's step: the row still says REQUESTED, slice 1 gave 4 units, then lost them.
        StockTransfer requested = transferRows.open(activity, SKU_ID, 1, 2, 4, Instant.now());
        assertThat(slices.take(slice(id, 1), SKU_ID, requested.id(), 4)).hasValue(4);

        loseSlice(slice(id, 1));
        assertThat(rebuiltByReconciliation(id).path("hotStore").asString()).isEqualTo("REBUILT");

        StockTransfer settled = transferRows.findById(requested.id()).orElseThrow();
        assertThat(settled.state()).isEqualTo(TransferState.DONE);
        assertThat(settled.moved()).as("the lost slice gave nothing the database knows of").isZero();
        assertThat(ledger(id, 1).total()).as("its share, whole").isEqualTo(10);
        assertThat(slices.take(slice(id, 1), SKU_ID, requested.id(), 4)).as("a late take").hasValue(0);
        assertThat(ledger(id, 1).total()).isEqualTo(10);
        assertThat(ledger(id, 2).total()).as("nothing was credited").isEqualTo(10);
    }

    /** The first reconciliation that does not wait for the pipeline any more. */
    private JsonNode rebuiltByReconciliation(String id) {
        AtomicReference<JsonNode> last = new AtomicReference<>();
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(200)).until(() -> {
            last.set(reconcile(id));
            return !"AWAITING_PIPELINE".equals(last.get().path("hotStore").asString());
        });
        return last.get();
    }

    /** Every key in the slice's hash slot gone, as on a master that came back empty. */
    private void loseSlice(SaleSlice slice) {
        List<String> keys = commands().keys("fs:\\{" + RedisKeys.tag(slice) + "\\}:*");
        assertThat(keys).as("the slice's keys").isNotEmpty();
        commands().del(keys.toArray(String[]::new));
    }

    private static String reservationOf(Map<String, String> accepted, String buyer) {
        return accepted.entrySet().stream().filter(entry -> entry.getValue().equals(buyer)).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
    }

    private static SaleSlice slice(String id, int k) {
        return new SaleSlice(new ActivityId(id), k, new SaleSlices(SLICES));
    }

    private Map<Integer, StockLedger> ledgers(String id) {
        return IntStream.range(0, SLICES).boxed()
                .collect(Collectors.toMap(k -> k, k -> ledger(id, k)));
    }

    private StockLedger ledger(String id, int k) {
        return slices.stock(slice(id, k)).orElseThrow().getFirst().ledger();
    }

    private RedisCommands<String, String> commands() {
        return redis.sync();
    }
}
