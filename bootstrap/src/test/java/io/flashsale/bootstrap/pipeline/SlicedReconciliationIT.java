package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.application.slice.port.in.FinishTransfersUseCase;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
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

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sale in slices reconciled through the service against MySQL (ADR 110): every slice is held to its allotment (its
 * share, with what DONE transfers moved), a lost write in one slice is repaired in that slice alone from its orders,
 * and a slice whose transfer the database has not heard the end of is never repaired until the sweep finishes it.
 * The transfer sweep and the rebalancer are held off meanwhile (their job locks taken), so only the test moves stock.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SlicedReconciliationIT extends PipelineTestBase {

    private static final int SLICES = 3;
    /** 10 units a slice. */
    private static final long UNITS = 30;
    private static final int LIMIT = 2;
    private static final SkuId SKU_ID = new SkuId(SKU);

    final StatefulRedisConnection<String, String> redis = TestRedis.connection();

    @Autowired
    TransferStockUseCase transfers;
    @Autowired
    FinishTransfersUseCase sweep;
    @Autowired
    StockTransfersPort transferRows;
    @Autowired
    SliceStockPort slices;

    @BeforeEach
    void holdOffTheTransferJobs() throws InterruptedException {
        holdOffTransferJobs("SlicedReconciliationIT");
    }

    @AfterEach
    void releaseTheTransferJobs() {
        releaseTransferJobs("SlicedReconciliationIT");
    }

    @Test
    void givenASaleInSlicesWithADoneTransferAndOrders_whenReconciled_thenEverySliceIsCleanAgainstItsAllotment()
            throws Exception {
        String id = slicedSale(UNITS, LIMIT, SLICES);
        StockTransfer moved = transfers.transfer(new ActivityId(id), SKU_ID, 0, 2, 4);
        assertThat(moved.state()).isEqualTo(TransferState.DONE);
        Map<String, String> accepted = buyOneEach(id, 12);
        awaitExactlyOneOrderEach(id, UNITS, accepted);

        JsonNode reconciliation = reconcile(id);

        assertThat(reconciliation.path("hotStore").asString()).isEqualTo("LOADED");
        JsonNode reports = reconciliation.path("reports");
        assertThat(reports.size()).as(reconciliation.toString()).isEqualTo(SLICES);
        for (int k = 0; k < SLICES; k++) {
            JsonNode report = reports.get(k);
            assertThat(report.path("classification").asString()).as(report.toString()).isEqualTo("NONE");
            assertThat(report.path("action").asString()).as(report.toString()).isEqualTo("NONE");
        }
        assertThat(ledger(id, 0).total() + ledger(id, 1).total() + ledger(id, 2).total()).as("every unit kept")
                .isEqualTo(UNITS);
    }

    @Test
    void givenOneSliceLostItsOrderedUnits_whenReconciled_thenThatSliceAloneIsRepairedFromItsOrders() throws Exception {
        String id = slicedSale(UNITS, LIMIT, SLICES);
        Map<String, String> accepted = buyOneEach(id, 12);
        awaitExactlyOneOrderEach(id, UNITS, accepted);
        // The slice with the most reservations loses them all, as a promoted replica that never saw them.
        Map<Integer, List<String>> bySlice = accepted.keySet().stream().collect(Collectors.groupingBy(
                reservation -> new ReservationId(reservation).slice().index()));
        int damaged = bySlice.entrySet().stream().max(Map.Entry.comparingByValue(
                (a, b) -> Integer.compare(a.size(), b.size()))).orElseThrow().getKey();
        int lost = bySlice.get(damaged).size();
        Map<Integer, StockLedger> before = new LinkedHashMap<>();
        for (int k = 0; k < SLICES; k++) {
            before.put(k, ledger(id, k));
        }
        SaleSlice slice = slice(id, damaged);
        commands().hincrby(RedisKeys.stock(slice), RedisKeys.stockField(SKU_ID, "sold"), -lost);
        commands().hincrby(RedisKeys.stock(slice), RedisKeys.stockField(SKU_ID, "avail:1"), lost);
        commands().hincrby(RedisKeys.stock(slice), RedisKeys.stockField(SKU_ID, "held"), -lost);
        bySlice.get(damaged).forEach(reservation -> commands().hdel(RedisKeys.holdings(slice),
                RedisKeys.holdingField(new BuyerId(accepted.get(reservation)), SKU_ID)));
        assertThat(ledger(id, damaged).available()).as("the slice offers its lost units again")
                .isEqualTo(before.get(damaged).available() + lost);

        JsonNode reports = reconcile(id).path("reports");

        for (int k = 0; k < SLICES; k++) {
            JsonNode report = reports.get(k);
            if (k == damaged) {
                assertThat(report.path("classification").asString()).as(report.toString()).isEqualTo("REDIS_AHEAD");
                assertThat(report.path("action").asString()).as(report.toString()).isEqualTo("REPAIRED");
                assertThat(report.path("detail").asString()).contains("slice " + k + " of " + SLICES);
            } else {
                assertThat(report.path("action").asString()).as(report.toString()).isEqualTo("NONE");
            }
            assertThat(ledger(id, k)).as("slice " + k + " as before the damage").isEqualTo(before.get(k));
        }
        assertThat(reconcile(id).path("reports").valueStream()
                .map(report -> report.path("action").asString()).toList()).containsOnly("NONE");
        assertExactlyOneOrderEach(id, UNITS, accepted);
    }

    @Test
    void givenATransferTheSourceGaveThatTheDatabaseNeverHeardOf_whenReconciled_thenNoSliceIsRepairedUntilItIsDone() {
        String id = slicedSale(UNITS, LIMIT, SLICES);
        ActivityId activity = new ActivityId(id);
        // A runner that died after the source's step: the row still says REQUESTED, slice 0 gave 5 units.
        StockTransfer requested = transferRows.open(activity, SKU_ID, 0, 2, 5, Instant.now());
        assertThat(slices.take(slice(id, 0), SKU_ID, requested.id(), 5)).hasValue(5);

        JsonNode reports = reconcile(id).path("reports");

        JsonNode sliceZero = reports.get(0);
        assertThat(sliceZero.path("action").asString()).as(sliceZero.toString()).isEqualTo("DEFERRED");
        assertThat(reports.get(1).path("action").asString()).isEqualTo("NONE");
        assertThat(reports.get(2).path("action").asString()).as("nothing credited yet, nothing to judge")
                .isEqualTo("NONE");
        assertThat(ledger(id, 0).total()).as("the 5 given are not put back").isEqualTo(5);

        assertThat(sweep.finishUnfinished()).isEqualTo(1);
        JsonNode after = reconcile(id).path("reports");

        assertThat(after.valueStream().map(report -> report.path("action").asString()).toList()).containsOnly("NONE");
        assertThat(ledger(id, 0).total()).isEqualTo(5);
        assertThat(ledger(id, 2).total()).isEqualTo(15);
        assertThat(redisLedger(id).ledger().total()).as("every unit kept").isEqualTo(UNITS);
    }

    /** One unit each for {@code buyers} buyers, retried while units are on their way between slices. */
    private Map<String, String> buyOneEach(String id, int buyers) throws InterruptedException {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int b = 0; b < buyers; b++) {
            ServiceClient.Reply answer = reserveUntilDecided(id, buyer(b), "k0");
            assertThat(answer.status()).as(answer.body()).isEqualTo(202);
            accepted.put(answer.json().path("reservationId").asString(), buyer(b));
        }
        return accepted;
    }

    private static SaleSlice slice(String id, int k) {
        return new SaleSlice(new ActivityId(id), k, new SaleSlices(SLICES));
    }

    private StockLedger ledger(String id, int k) {
        return slices.stock(slice(id, k)).orElseThrow().getFirst().ledger();
    }

    private RedisCommands<String, String> commands() {
        return redis.sync();
    }
}
