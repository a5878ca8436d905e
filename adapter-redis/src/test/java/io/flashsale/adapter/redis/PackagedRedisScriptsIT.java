package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.OutboxBacklog;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import io.flashsale.embedded.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scripts of a sale's whole life on the Redis that demo mode and a JDK-only machine run: the packaged 6.2 binary,
 * whatever Redis the other tests use (CI's is 7.x, so without this a command or reply 6.2 lacks would pass there).
 * Warm-up, reserve, the relay's read, claim, acknowledge and backlog (XINFO GROUPS has no lag on 6.2, XAUTOCLAIM
 * answers two elements), confirm and fail singly and in batches, pay, cancel, lapse (restore_batch: the path of
 * restored-stock.feature), the reconciliation snapshot, the archive's checks and delete (archive.feature), an
 * operator's pause, resume and window (sale_terms.lua), and a stock transfer between two slices (transfer_out.lua,
 * transfer_in.lua, ADR 109) and each slice's look after it (ADR 110).
 */
@Timeout(120)
class PackagedRedisScriptsIT {

    private static final SkuId SKU = new SkuId("ticket");
    private static final String RELAY = "relay-1";

    private static EmbeddedRedis server;
    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;

    private final String registry = "fs:outbox:activities:packaged-" + UUID.randomUUID();
    private final ActivityId activityId = new ActivityId("pk-" + UUID.randomUUID().toString().substring(0, 12));

    @BeforeAll
    static void startThePackagedRedis() throws IOException {
        server = EmbeddedRedis.start(Files.createTempDirectory("flashsale-packaged-redis-"), 0);
        client = RedisClient.create("redis://" + server.address().host() + ":" + server.address().port());
        connection = client.connect();
    }

    @AfterAll
    static void stopIt() {
        if (connection != null) {
            connection.close();
            client.shutdown();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theServerIsThePackagedLine() {
        assertThat(connection.sync().info("server")).contains("redis_version:" + EmbeddedRedis.BUNDLED_VERSION + ".");
    }

    @Test
    void givenTenSoldThreeCancelledAndTwoLapsed_thenFiveComeBackAndTheSaleIsArchivedOnceSettled() {
        var stock = new RedisStockReservationAdapter(connection, registry);
        var outbox = new RedisReservationOutbox(connection, registry);
        var settlement = new RedisHotStoreSettlement(connection.sync(), activity -> { });
        var reconciliation = new RedisHotStoreReconciliation(connection);
        var relayed = new RedisRelayedEvents(connection);
        var archive = new RedisActivityArchive(connection, registry);
        Activity sale = sale(10);

        assertThat(stock.warmUp(sale)).containsExactly(new SkuStock(SKU, StockLedger.of(10)));
        assertThat(stock.warmUp(sale)).as("warming up again changes nothing").containsExactly(
                new SkuStock(SKU, StockLedger.of(10)));
        var terms = new RedisSaleTerms(connection);
        assertThat(terms.applyPaused(activityId, true)).isTrue();
        assertThat(reserve(stock, "while-paused")).as("paused (ADR 79)").isEmpty();
        assertThat(terms.applyPaused(activityId, false)).isTrue();
        assertThat(terms.applyWindow(activityId, sale.startsAt(), sale.endsAt())).isTrue();
        List<Reservation> made = new ArrayList<>();
        for (int buyer = 0; buyer < 12; buyer++) {
            reserve(stock, "buyer-" + buyer).ifPresent(made::add);
        }
        assertThat(made).as("ten of twelve accepted").hasSize(10);
        assertThat(stock.stock(activityId).orElseThrow()).containsExactly(
                new SkuStock(SKU, new StockLedger(10, 10, 0)));

        // The relay: one reads, another claims what the first left pending, then acknowledges with positions.
        List<OutboxEntry> read = outbox.readNew(activityId, RELAY, 100);
        assertThat(read).hasSize(10);
        assertThat(outbox.backlog(activityId).depth()).as("read, not acknowledged").isEqualTo(10);
        List<OutboxEntry> claimed = outbox.claimStale(activityId, "relay-2", Duration.ZERO, 100);
        assertThat(claimed).hasSize(10);
        outbox.acknowledge(activityId, claimed);
        assertThat(outbox.backlog(activityId)).isEqualTo(OutboxBacklog.EMPTY);
        assertThat(relayed.outboxDrained(activityId)).isTrue();

        // The order pipeline places eight in a batch and one singly, and one is refused (its unit stays reserved).
        settlement.settle(activityId, ids(made.subList(0, 8)), List.of());
        assertThat(stock.confirm(made.get(8).id())).isTrue();
        assertThat(stock.fail(made.get(9).id())).isTrue();
        assertThat(archive.reservedCount(activityId)).isZero();

        // Five pay, three cancel (one singly), two lapse in one batch.
        // An ordered reservation keeps no record (ADR 71): paying marks nothing, a restore brings the order's lines.
        made.subList(0, 5).forEach(paid -> assertThat(stock.markPaid(paid.id())).isFalse());
        assertThat(stock.restore(PendingRestore.of(made.get(5), ReservationStatus.CANCELLED)))
                .contains(ReservationStatus.ORDERED);
        Map<ReservationId, ReservationStatus> before = settlement.restore(activityId, List.of(
                PendingRestore.of(made.get(6), ReservationStatus.CANCELLED),
                PendingRestore.of(made.get(7), ReservationStatus.CANCELLED),
                PendingRestore.of(made.get(8), ReservationStatus.EXPIRED)));
        assertThat(before.values()).containsOnly(ReservationStatus.ORDERED);
        assertThat(stock.stock(activityId).orElseThrow()).as("5 paid; 3 cancelled and 1 lapsed back; the refused one held until reconciliation")
                .containsExactly(new SkuStock(SKU, new StockLedger(10, 1, 5)));
        assertThat(stock.findReservation(made.get(8).id())).as("a restored order keeps only its letter").isEmpty();

        // A new buyer takes one of them; released before it is ordered, it comes back too.
        Reservation late = reserve(stock, "late").orElseThrow();
        assertThat(stock.release(late.id(), Instant.parse("2031-01-02T03:04:05Z"))).isTrue();
        assertThat(archive.cancelledReservations(activityId)).contains(late.id());
        assertThat(reconciliation.snapshot(activityId)).isPresent();
        assertThat(stock.stock(activityId).orElseThrow()).containsExactly(new SkuStock(SKU, new StockLedger(10, 1, 5)));

        outbox.acknowledge(activityId, outbox.readNew(activityId, RELAY, 100));
        assertThat(archive.delete(activityId)).isTrue();
        assertThat(stock.stock(activityId)).as("archived: nothing of the sale is left").isEmpty();
        assertThat(connection.sync().keys("*" + activityId.value() + "*")).isEmpty();
        connection.sync().del(registry);
    }

    @Test
    void givenASaleOfTwoSlices_thenATransferTakesFromOneAndCreditsTheOtherOnce() {
        Instant now = Instant.now();
        Activity sliced = new Activity(activityId, "packaged slices", now.minus(Duration.ofMinutes(1)),
                now.plus(Duration.ofHours(1)), PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT,
                List.of(new ActivityItem(SKU, 10, null, 2)), false, new SaleSlices(2));
        var slices = new SliceFixture(connection.sync());
        var port = new RedisSliceStock(connection);
        SaleSlice zero = new SaleSlice(activityId, 0, sliced.slices());
        SaleSlice one = new SaleSlice(activityId, 1, sliced.slices());
        slices.warmUp(sliced);
        try {
            assertThat(port.take(zero, SKU, 1, 7)).hasValue(5);
            assertThat(port.take(zero, SKU, 1, 7)).as("again").hasValue(5);
            assertThat(port.credit(one, SKU, 1, 5)).isTrue();
            assertThat(port.credit(one, SKU, 1, 5)).as("again").isTrue();

            assertThat(slices.ledger(zero, SKU)).isEqualTo(StockLedger.of(0));
            assertThat(slices.ledger(one, SKU)).isEqualTo(StockLedger.of(10));
            var reconciliation = new RedisHotStoreReconciliation(connection);
            assertThat(reconciliation.snapshot(one).orElseThrow().sku(SKU).orElseThrow().figures())
                    .as("each slice reconciled alone (ADR 110)").isEqualTo(new LedgerFigures(10, 0, 0, 10));
            assertThat(reconciliation.snapshot(zero).orElseThrow().skus()).containsOnlyKeys(SKU);
        } finally {
            slices.forget(sliced);
        }
    }

    private Activity sale(long units) {
        Instant now = Instant.now();
        return new Activity(activityId, "packaged", now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)),
                PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(SKU, units, null, 2)));
    }

    private Optional<Reservation> reserve(RedisStockReservationAdapter stock, String buyer) {
        var request = new ReservationRequest(ReservationId.of(activityId, UUID.randomUUID().toString().replace("-", "")),
                new BuyerId(buyer), new RequestId("k-" + buyer), List.of(new ReservationLine(SKU, 1)), Instant.now());
        return stock.reserve(request) instanceof ReservationOutcome.Reserved(Reservation reservation)
                ? Optional.of(reservation) : Optional.empty();
    }

    private static List<ReservationId> ids(List<Reservation> reservations) {
        return reservations.stream().map(Reservation::id).toList();
    }
}
