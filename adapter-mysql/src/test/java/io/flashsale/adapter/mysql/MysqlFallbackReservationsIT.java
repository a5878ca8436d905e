package io.flashsale.adapter.mysql;

import io.flashsale.application.reservation.port.out.FallbackReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database path of a reservation (Redis down, ADR 39) against the real server: one transaction that takes the
 * stock, guards the buyer's limit and writes the order ORDERED; a refusal leaves nothing; an idempotency key is honoured;
 * and a crowd of real threads on real row locks never oversells nor takes a buyer over the limit.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(120)
class MysqlFallbackReservationsIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_fallback");
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00.250Z");

    @Autowired
    FallbackReservationPort fallback;
    @Autowired
    MysqlOrderRepository orders;
    @Autowired
    MysqlActivityRepository activities;
    @Autowired
    MysqlSalesFigures figures;
    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "12");
    }

    @Test
    void givenStock_whenReserved_thenTheOrderIsOrderedAtOnceWithItsStockAndPurchase() {
        ActivityId sale = sale(2, 5);
        ReservationRequest request = request(sale, "buyer-1", "req-1", 2);

        ReservationOutcome outcome = fallback.reserve(request);

        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(((ReservationOutcome.Reserved) outcome).reservation().status()).isEqualTo(ReservationStatus.ORDERED);
        Order order = orders.find(request.id()).orElseThrow();
        assertThat(order.status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(figures.soldBySku(sale)).containsEntry(SKU, 2L);
        assertThat(figures.stockFlowBySku(sale)).containsEntry(SKU, 2L);
        assertThat(held(sale, "buyer-1")).isEqualTo(2);
    }

    @Test
    void givenTooFewUnits_whenReserved_thenSoldOutOrInsufficientAndNothingIsWritten() {
        ActivityId sale = sale(3, 3);
        assertThat(fallback.reserve(request(sale, "buyer-1", "r1", 2))).isInstanceOf(ReservationOutcome.Reserved.class);

        ReservationRequest tooMany = request(sale, "buyer-2", "r2", 2);
        assertThat(fallback.reserve(tooMany)).isEqualTo(new ReservationOutcome.InsufficientStock(SKU, 1));
        assertThat(fallback.reserve(request(sale, "buyer-3", "r3", 1))).isInstanceOf(ReservationOutcome.Reserved.class);
        ReservationRequest late = request(sale, "buyer-4", "r4", 1);
        assertThat(fallback.reserve(late)).isEqualTo(new ReservationOutcome.SoldOut(SKU));

        assertThat(orders.find(tooMany.id())).isEmpty();
        assertThat(orders.find(late.id())).isEmpty();
        assertThat(figures.soldBySku(sale)).containsEntry(SKU, 3L);
        assertThat(held(sale, "buyer-2")).isZero();
    }

    @Test
    void givenABuyerAtTheLimit_whenReservingAgain_thenLimitExceededWithWhatTheyHold() {
        ActivityId sale = sale(2, 10);
        assertThat(fallback.reserve(request(sale, "buyer-1", "r1", 2))).isInstanceOf(ReservationOutcome.Reserved.class);

        ReservationRequest again = request(sale, "buyer-1", "r2", 1);

        assertThat(fallback.reserve(again)).isEqualTo(new ReservationOutcome.LimitExceeded(SKU, 2, 2));
        assertThat(orders.find(again.id())).isEmpty();
        assertThat(figures.soldBySku(sale)).containsEntry(SKU, 2L);
    }

    @Test
    void givenTheSameIdempotencyKey_whenSentAgain_thenTheFirstReservationIsReplayedAndNothingMoves() {
        ActivityId sale = sale(5, 10);
        ReservationRequest first = request(sale, "buyer-1", "same-key", 1);
        assertThat(fallback.reserve(first)).isInstanceOf(ReservationOutcome.Reserved.class);

        ReservationOutcome retry = fallback.reserve(request(sale, "buyer-1", "same-key", 1));

        assertThat(retry).isInstanceOf(ReservationOutcome.Replayed.class);
        assertThat(((ReservationOutcome.Replayed) retry).reservation().id()).isEqualTo(first.id());
        assertThat(figures.soldBySku(sale)).containsEntry(SKU, 1L);
    }

    @Test
    void givenAnAcceptedKey_whenLookedUpBeforeTheBucket_thenItsReservation_andAnotherKeyFindsNone() {
        ActivityId sale = sale(5, 10);
        ReservationRequest first = request(sale, "buyer-1", "looked-up-key", 1);
        assertThat(fallback.reserve(first)).isInstanceOf(ReservationOutcome.Reserved.class);

        assertThat(fallback.acceptedBefore(request(sale, "buyer-1", "looked-up-key", 1)))
                .hasValueSatisfying(earlier -> assertThat(earlier.id()).isEqualTo(first.id()));
        assertThat(fallback.acceptedBefore(request(sale, "buyer-1", "another-key", 1))).isEmpty();
        assertThat(fallback.acceptedBefore(request(sale, "buyer-2", "looked-up-key", 1))).isEmpty();
    }

    /**
     * Redis accepted the request, MySQL refused it (a FAILED order now holds the request's one row), and the buyer sends
     * it again while Redis is out: the database path answers that reservation, as the hot store's request index would,
     * instead of trying a second row for the request (which the unique key refuses with a 500).
     */
    @Test
    void givenAFailedOrderHoldingTheRequest_whenSentAgain_thenThatReservationIsReplayedAndNoSecondRowIsTried() {
        ActivityId sale = sale(5, 1);
        assertThat(fallback.reserve(request(sale, "buyer-2", "first", 1))).isInstanceOf(ReservationOutcome.Reserved.class);
        ReservationRequest onRedis = request(sale, "buyer-1", "key-1", 1);
        assertThat(orders.place(onRedis.toReservation(), AT.plusSeconds(1)).order().status())
                .isEqualTo(ReservationStatus.FAILED);

        ReservationOutcome retry = fallback.reserve(request(sale, "buyer-1", "key-1", 1));

        assertThat(retry).isInstanceOf(ReservationOutcome.Replayed.class);
        assertThat(((ReservationOutcome.Replayed) retry).reservation().id()).isEqualTo(onRedis.id());
        assertThat(((ReservationOutcome.Replayed) retry).reservation().status()).isEqualTo(ReservationStatus.FAILED);
        assertThat(figures.orderCountByStatus(sale)).isEqualTo(Map.of(ReservationStatus.ORDERED, 1L,
                ReservationStatus.FAILED, 1L));
    }

    /** 20 units, 40 buyers each sending 2 attempts (one of them twice with one key) at once: limit 1. */
    @RepeatedTest(3)
    void givenACrowd_whenAllReserveAtOnce_thenExactlyTheStockIsSoldAndNoBuyerPassesTheLimit() throws Exception {
        ActivityId sale = sale(1, 20);
        List<ReservationRequest> attempts = new ArrayList<>();
        for (int buyer = 0; buyer < 40; buyer++) {
            attempts.add(request(sale, "crowd-" + buyer, "k-" + buyer, 1));
            attempts.add(request(sale, "crowd-" + buyer, buyer % 2 == 0 ? "k-" + buyer : "other-" + buyer, 1));
        }
        ExecutorService pool = Executors.newFixedThreadPool(10);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ReservationOutcome>> outcomes = new ArrayList<>();
        try {
            for (ReservationRequest attempt : attempts) {
                outcomes.add(pool.submit(() -> {
                    start.await();
                    return fallback.reserve(attempt);
                }));
            }
            start.countDown();
            long reserved = 0;
            for (Future<ReservationOutcome> outcome : outcomes) {
                if (outcome.get(60, TimeUnit.SECONDS) instanceof ReservationOutcome.Reserved) {
                    reserved++;
                }
            }
            assertThat(reserved).isEqualTo(20);
        } finally {
            pool.shutdownNow();
        }
        assertThat(figures.soldBySku(sale)).containsEntry(SKU, 20L);
        assertThat(figures.orderCountByStatus(sale)).isEqualTo(Map.of(ReservationStatus.ORDERED, 20L));
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT MAX(quantity) FROM buyer_purchase WHERE activity_id = ?", Long.class, sale.value()))
                .isEqualTo(1L);
    }

    private static final SkuId SKU = new SkuId("sku-f");

    private ActivityId sale(int limit, long stock) {
        ActivityId id = new ActivityId("fb-" + token().substring(0, 16));
        activities.add(new Activity(id, "Fallback " + id, Instant.parse("2026-12-01T09:00:00Z"),
                Instant.parse("2026-12-01T12:00:00Z"), new PurchaseLimit(limit), Duration.ofMinutes(15),
                List.of(new ActivityItem(SKU, stock, null, 1))));
        return id;
    }

    private static ReservationRequest request(ActivityId sale, String buyer, String key, int quantity) {
        return new ReservationRequest(ReservationId.of(sale, token()), new BuyerId(buyer), new RequestId(key),
                List.of(new ReservationLine(SKU, quantity)), AT);
    }

    private long held(ActivityId sale, String buyer) {
        Long held = new JdbcTemplate(dataSource).query(
                "SELECT quantity FROM buyer_purchase WHERE activity_id = ? AND buyer_id = ? AND sku_id = ?",
                rs -> rs.next() ? rs.getLong(1) : null, sale.value(), buyer, SKU.value());
        return held == null ? 0 : held;
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
