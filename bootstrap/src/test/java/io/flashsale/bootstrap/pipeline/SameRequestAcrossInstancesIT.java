package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.ReservationOrderListener;
import io.flashsale.adapter.mysql.MysqlActivityRepository;
import io.flashsale.adapter.outage.FailoverStockReservations;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.in.ReserveOnDatabaseUseCase;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.StockLedger;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.kafka.listener.MessageListenerContainer;
import tools.jackson.databind.JsonNode;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * Defect 12 of docs/reliability.md (ADR 61): a request the database path decided on one instance (its breaker open),
 * whose answer the buyer never got, repeated through another instance on Redis, which does not know it. That one makes
 * a second reservation; the pipeline refuses it as the request's duplicate (one order per request, ADR 32) and records
 * it as an alias of the request's order, so the id the buyer holds reads and pays that order. Instance 1 is this
 * context (breaker closed, Redis decides); instance 0 is a second {@link FailoverStockReservations} on the same Redis
 * and MySQL with its breaker forced open.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SameRequestAcrossInstancesIT extends PipelineTestBase {

    private static final long UNITS = 5;

    @Autowired
    @Qualifier("stockReservationPort")
    StockReservationPort redis;
    @Autowired
    @Qualifier("heldReservationsPort")
    HeldReservationsPort redisRecords;
    @Autowired
    ReserveOnDatabaseUseCase databasePath;
    @Autowired
    MysqlActivityRepository activities;
    @Autowired
    IdGeneratorPort ids;
    @Autowired
    ReservationAliasPort aliases;

    @Test
    void givenARequestTheDatabasePathDecidedOnInstance0_whenRepeatedThroughInstance1_thenTheSecondIdLeadsToItsOrder() {
        String activityId = openSale(UNITS);
        ActivityId sale = new ActivityId(activityId);
        ReservationId first = decidedOnInstance0(sale, "lost-answer-1");
        assertThat(orders.find(first).map(Order::status)).as("placed by the database path")
                .contains(ReservationStatus.ORDERED);

        ServiceClient.Reply repeat = send("POST", "/api/v1/activities/" + activityId + "/reservations",
                "{\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}",
                "Authorization", bearerOf("buyer-1"), "Idempotency-Key", "lost-answer-1");
        assertThat(repeat.status()).as(repeat.body()).isEqualTo(202);
        ReservationId second = new ReservationId(repeat.json().path("reservationId").asString());
        assertThat(second).as("Redis did not know the request").isNotEqualTo(first);

        await().atMost(WITHIN).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            assertThat(heldReservations.findReservation(second).map(Reservation::status)).contains(ReservationStatus.FAILED);
            assertThat(aliases.orderReservationOf(second)).contains(first);
        });
        assertThat(orders.find(second)).as("the refusal stores no order (ADR 32)").isEmpty();

        JsonNode read = reservation(second.value(), "buyer-1");
        assertThat(read.path("reservationId").asString()).isEqualTo(first.value());
        assertThat(read.path("status").asString()).isEqualTo("ORDERED");
        assertThat(read.path("orderId").asString()).isEqualTo(first.value());
        assertThat(read.path("sameRequestAs").asString()).isEqualTo(second.value());
        assertThat(send("GET", "/api/v1/reservations/" + second.value(), null, "Authorization",
                bearerOf("buyer-2")).status())
                .as("another buyer").isEqualTo(404);
        assertThat(reservation(first.value(), "buyer-1").has("sameRequestAs")).isFalse();

        // One order, one unit sold in MySQL; Redis gave the second reservation's unit back, once.
        assertThat(figures.orderCountByStatus(sale)).containsExactly(entry(ReservationStatus.ORDERED, 1L));
        assertThat(figures.soldBySku(sale)).containsExactly(entry(new SkuId(SKU), 1L));
        assertThat(figures.stockFlowBySku(sale)).containsExactly(entry(new SkuId(SKU), 1L));
        StockLedger redisBeforeRecovery = redisLedger(activityId).ledger();
        assertThat(redisBeforeRecovery.reserved()).isZero();
        assertThat(redisBeforeRecovery.sold()).as("Redis never sold the second reservation").isZero();
        assertThat(redisBeforeRecovery.available()).as("its unit back exactly once").isEqualTo(UNITS);

        ServiceClient.Reply paid = api().pay(second.value(), "buyer-1");
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(paid.json().path("reservationId").asString()).isEqualTo(first.value());
        assertThat(paid.json().path("status").asString()).isEqualTo("PAID");
        assertThat(paid.json().path("sameRequestAs").asString()).isEqualTo(second.value());
        assertThat(orders.find(first).map(Order::status)).contains(ReservationStatus.PAID);
        assertThat(reservation(first.value(), "buyer-1").path("status").asString()).isEqualTo("PAID");
        ServiceClient.Reply paidAgain = api().pay(second.value(), "buyer-1");
        assertThat(paidAgain.status()).as(paidAgain.body()).isEqualTo(200);
        ServiceClient.Reply cancelled = api().cancel(second.value(), "buyer-1");
        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(409);
        assertThat(cancelled.json().path("code").asString()).isEqualTo("NOT_CANCELLABLE");

        // Instance 0's recovery brings Redis to MySQL's figures when its breaker closes; the reconciliation does the same.
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            reconcile(activityId);
            StockLedger recovered = redisLedger(activityId).ledger();
            assertThat(recovered.sold()).isEqualTo(1);
            assertThat(recovered.available()).isEqualTo(UNITS - 1);
            assertThat(recovered.reserved()).isZero();
        });
        assertThat(figures.orderCountByStatus(sale)).isEqualTo(Map.of(ReservationStatus.PAID, 1L));
        assertThat(figures.soldBySku(sale)).containsExactly(entry(new SkuId(SKU), 1L));
    }

    /**
     * The buyer cancels the second id before the pipeline has refused it (the consumer is stopped): Redis releases it,
     * and the request's order, held under the first id, is cancelled with it; each unit comes back once.
     */
    @Test
    void givenTheSecondIdStillReserved_whenItsBuyerCancelsIt_thenTheRequestsOrderIsCancelledToo() {
        String activityId = openSale(UNITS);
        ActivityId sale = new ActivityId(activityId);
        ReservationId first = decidedOnInstance0(sale, "lost-answer-2");

        MessageListenerContainer consumer = listeners.getListenerContainer(ReservationOrderListener.LISTENER_ID);
        consumer.stop();
        ReservationId second;
        try {
            ServiceClient.Reply repeat = send("POST", "/api/v1/activities/" + activityId + "/reservations",
                    "{\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}",
                    "Authorization", bearerOf("buyer-1"), "Idempotency-Key", "lost-answer-2");
            assertThat(repeat.status()).as(repeat.body()).isEqualTo(202);
            second = new ReservationId(repeat.json().path("reservationId").asString());
            assertThat(second).isNotEqualTo(first);

            ServiceClient.Reply cancelled = api().cancel(second.value(), "buyer-1");
            assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
            assertThat(cancelled.json().path("reservationId").asString()).isEqualTo(second.value());
            assertThat(cancelled.json().path("status").asString()).isEqualTo("CANCELLED");
        } finally {
            consumer.start();
        }

        assertThat(orders.find(first).map(Order::status)).as("the request's order").contains(ReservationStatus.CANCELLED);
        assertThat(figures.soldBySku(sale)).containsExactly(entry(new SkuId(SKU), 0L));
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            reconcile(activityId);
            StockLedger recovered = redisLedger(activityId).ledger();
            assertThat(recovered.sold()).isZero();
            assertThat(recovered.reserved()).isZero();
            assertThat(recovered.available()).as("both units back, once each").isEqualTo(UNITS);
        });
        assertThat(reservation(second.value(), "buyer-1").path("status").asString()).isEqualTo("CANCELLED");
        assertThat(figures.soldBySku(sale)).containsExactly(entry(new SkuId(SKU), 0L));
        assertThat(figures.orderCountByStatus(sale).getOrDefault(ReservationStatus.ORDERED, 0L)).isZero();
    }

    /** Buyer 1's request of one unit, reserved by instance 0 on the database path: its answer is the one lost. */
    private ReservationId decidedOnInstance0(ActivityId sale, String requestId) {
        FailoverStockReservations hotStore = instanceWithItsBreakerOpen();
        ReservationService instance0 = new ReservationService(hotStore, hotStore, activities, orders, ids,
                Clock.systemUTC());
        ReservationOutcome decided = instance0.reserve(new ReserveStockCommand(sale, new BuyerId("buyer-1"),
                new RequestId(requestId), List.of(new ReservationLine(new SkuId(SKU), 1))));
        assertThat(decided).isInstanceOf(ReservationOutcome.Reserved.class);
        return ((ReservationOutcome.Reserved) decided).reservation().id();
    }

    /** Instance 0's port: the same Redis and MySQL, a breaker of its own forced open, so the database decides. */
    private FailoverStockReservations instanceWithItsBreakerOpen() {
        CircuitBreaker breaker = CircuitBreaker.ofDefaults("instance-0");
        breaker.transitionToOpenState();
        return new FailoverStockReservations(redis, redisRecords, databasePath, breaker,
                                             Bulkhead.ofDefaults("instance-0"),
                Duration.ofSeconds(1));
    }
}
