package io.flashsale.adapter.mysql;

import io.flashsale.application.order.port.out.ProviderPaymentsPort.PaymentMark;
import io.flashsale.application.order.port.out.RefusedPayment;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.PaymentReference;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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

/** The provider's payments against the real server: the unique reference on the order, and the refused ones kept. */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(120)
class MysqlProviderPaymentsIT extends LifecycleDatabase {

    /** References are unique in the database every test of the JVM (and other runs) share. */
    private static final String RUN = token().substring(0, 12);

    @Autowired
    MysqlProviderPayments payments;
    @Autowired
    MysqlOrderRepository orders;
    @Autowired
    MysqlActivityRepository activities;
    @Autowired
    DataSource dataSource;

    private final Instant era = TestEras.next();
    private final Instant placedAt = era.plusSeconds(1);
    private final Instant providerPaidAt = placedAt.plusMillis(20_456);

    @Test
    void givenAnOrderedOrder_whenPaidUnderAReference_thenPaidAtItsMomentWithTheReferenceAndTheProvidersTime() {
        Reservation reservation = placed(sale(Duration.ofMinutes(1)), "buyer-1");
        Instant at = placedAt.plusMillis(30_123);

        assertThat(payments.markPaid(reservation.id(), reference("pay-1"), providerPaidAt, at.plusNanos(999)))
                .isEqualTo(PaymentMark.PAID);

        Order paid = orders.find(reservation.id()).orElseThrow();
        assertThat(paid.status()).isEqualTo(ReservationStatus.PAID);
        assertThat(paid.closedAt()).isEqualTo(at);
        assertThat(payments.referenceOf(reservation.id())).contains(reference("pay-1"));
        assertThat(jdbc().queryForObject("SELECT CAST(provider_paid_at AS CHAR) FROM purchase_order"
                + " WHERE reservation_id = ?", String.class, reservation.id().value()))
                .as("UTC wall-clock time, as every stored time")
                .isEqualTo(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC)
                        .format(providerPaidAt));
        assertThat(payments.markPaid(reservation.id(), reference("pay-1"), providerPaidAt, at.plusSeconds(1)))
                .as("paid already: the conditional move finds nothing to change").isEqualTo(PaymentMark.NOT_CHANGED);
    }

    @Test
    void givenAReferenceThatPaidOneOrder_whenItPaysAnother_thenReferenceTakenAndTheOtherStaysOrdered() {
        ActivityId sale = sale(Duration.ofMinutes(1));
        Reservation first = placed(sale, "buyer-1");
        Reservation second = placed(sale, "buyer-2");
        PaymentReference reference = reference("pay-shared");
        payments.markPaid(first.id(), reference, providerPaidAt, placedAt.plusSeconds(5));

        PaymentMark mark = payments.markPaid(second.id(), reference, providerPaidAt, placedAt.plusSeconds(6));

        assertThat(mark).isEqualTo(PaymentMark.REFERENCE_TAKEN);
        assertThat(orders.find(second.id()).orElseThrow().status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(payments.referenceOf(second.id())).isEmpty();
    }

    @Test
    void givenAnOrderPastItsDeadline_whenPaid_thenNothingChanges() {
        Reservation late = placed(sale(Duration.ofSeconds(7)), "buyer-1");

        PaymentMark mark = payments.markPaid(late.id(), reference("pay-late"), providerPaidAt, placedAt.plusSeconds(7));

        assertThat(mark).isEqualTo(PaymentMark.NOT_CHANGED);
        assertThat(orders.find(late.id()).orElseThrow().status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(payments.referenceOf(late.id())).isEmpty();
    }

    @Test
    void givenABuyerConfirmedPayment_thenTheOrderHasNoReference() {
        Reservation reservation = placed(sale(Duration.ofMinutes(1)), "buyer-1");

        assertThat(orders.markPaid(reservation.id(), placedAt.plusSeconds(3))).isTrue();

        assertThat(payments.referenceOf(reservation.id())).isEmpty();
    }

    @Test
    void givenTwentyConcurrentDeliveriesOfOnePayment_thenExactlyOneMakesTheMove() throws Exception {
        Reservation reservation = placed(sale(Duration.ofMinutes(1)), "buyer-1");
        CountDownLatch start = new CountDownLatch(1);
        List<Future<PaymentMark>> marks = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(20)) {
            for (int i = 0; i < 20; i++) {
                marks.add(pool.submit(() -> {
                    start.await();
                    return payments.markPaid(reservation.id(), reference("pay-raced"), providerPaidAt,
                            placedAt.plusSeconds(4));
                }));
            }
            start.countDown();
            List<PaymentMark> answers = new ArrayList<>();
            for (Future<PaymentMark> mark : marks) {
                answers.add(mark.get(1, TimeUnit.MINUTES));
            }
            assertThat(answers).filteredOn(PaymentMark.PAID::equals).hasSize(1);
            assertThat(answers).filteredOn(PaymentMark.NOT_CHANGED::equals).hasSize(19);
        }
        assertThat(payments.referenceOf(reservation.id())).contains(reference("pay-raced"));
    }

    @Test
    void givenARefusedPayment_whenDeliveredTwice_thenOneRowCountingBothDeliveries() {
        ReservationId id = placed(sale(Duration.ofMinutes(1)), "buyer-1").id();
        PaymentReference reference = reference("pay-refused");
        Instant first = placedAt.plusSeconds(70);
        Instant second = first.plusSeconds(30);

        payments.recordRefused(new RefusedPayment(id, reference, RefusedPayment.Reason.NOT_PAYABLE,
                ReservationStatus.EXPIRED, providerPaidAt, first));
        payments.recordRefused(new RefusedPayment(id, reference, RefusedPayment.Reason.NOT_PAYABLE,
                ReservationStatus.EXPIRED, providerPaidAt, second));

        List<Map<String, Object>> rows = jdbc().queryForList(
                "SELECT payment_reference, reason, order_status, deliveries FROM payment_conflicts"
                        + " WHERE reservation_id = ?", id.value());
        assertThat(rows).hasSize(1);
        assertThat(rows.getFirst()).containsEntry("payment_reference", reference.value())
                .containsEntry("reason", "NOT_PAYABLE").containsEntry("order_status", "EXPIRED")
                .containsEntry("deliveries", 2);
        assertThat(jdbc().queryForObject("SELECT TIMESTAMPDIFF(SECOND, first_received_at, last_received_at)"
                + " FROM payment_conflicts WHERE payment_reference = ?", Long.class, reference.value())).isEqualTo(30L);
    }

    // ---- helpers ----

    private JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource);
    }

    private static PaymentReference reference(String name) {
        return new PaymentReference(name + "-" + RUN);
    }

    private Reservation placed(ActivityId sale, String buyer) {
        Reservation reservation = new Reservation(ReservationId.of(sale, token()), sale, new BuyerId(buyer),
                new RequestId("req-" + token().substring(0, 8)), List.of(new ReservationLine(new SkuId("a"), 1)),
                ReservationStatus.RESERVED, era);
        assertThat(orders.place(reservation, placedAt)).isInstanceOf(OrderPlacement.Placed.class);
        return reservation;
    }

    private ActivityId sale(Duration paymentTimeout) {
        ActivityId id = new ActivityId("pay-" + token().substring(0, 16));
        activities.add(new Activity(id, "Payments " + id, era.minus(Duration.ofHours(1)), era.plus(Duration.ofHours(6)),
                new PurchaseLimit(5), paymentTimeout, List.of(new ActivityItem(new SkuId("a"), 10, null, 1))));
        return id;
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
