package io.flashsale.adapter.mysql;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.ProviderPaymentsPort.PaymentMark;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.PaymentReference;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.testsupport.MovableClock;
import io.flashsale.testsupport.TestServices;
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
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Payment deadlines judged by the database's clock (ADR 0082): instances whose own clocks run minutes ahead or behind
 * pay and expire exactly as the database's clock says. The deadlines are set relative to the database's clock, read
 * once per test; the service's instants the calls hand in are ten minutes off it. A database of its own, since its
 * orders are due by the real clock, which the era tests' handed-in instants (decades ahead) would also find due.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class, properties = "flashsale.payment.deadline-clock=database")
@Timeout(120)
class DatabaseDeadlineClockIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_deadline");
    private static final Duration TIMEOUT = Duration.ofMinutes(1);
    private static final Duration SKEW = Duration.ofMinutes(10);

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        // A session zone other than UTC: the deadline is compared with UTC_TIMESTAMP, never the session's NOW().
        registry.add("spring.datasource.hikari.connection-init-sql", () -> "SET time_zone = '+05:45'");
    }

    @Autowired
    MysqlOrderRepository orders;
    @Autowired
    MysqlProviderPayments payments;
    @Autowired
    MysqlActivityRepository activities;
    @Autowired
    DataSource dataSource;

    @Test
    void givenAnInstanceMinutesAhead_whenPaidJustBeforeTheDeadlineByTheDatabasesClock_thenPaid() {
        Instant databaseNow = databaseNow();
        MovableClock ahead = new MovableClock(databaseNow.plus(SKEW));
        ActivityId sale = sale(databaseNow);
        Instant dueAt = databaseNow.plusSeconds(3);
        Reservation byBuyer = placed(sale, "buyer-1", dueAt.minus(TIMEOUT), ahead);
        Reservation byProvider = placed(sale, "buyer-2", dueAt.minus(TIMEOUT), ahead);

        assertThat(orders.markPaid(byBuyer.id(), ahead.instant())).as("the buyer's confirmation").isTrue();
        assertThat(payments.markPaid(byProvider.id(), new PaymentReference("pay-" + token()), databaseNow,
                ahead.instant())).as("the provider's notification").isEqualTo(PaymentMark.PAID);

        assertThat(status(byBuyer)).isEqualTo(ReservationStatus.PAID);
        assertThat(status(byProvider)).isEqualTo(ReservationStatus.PAID);
    }

    @Test
    void givenAnInstanceMinutesBehind_whenPaidAtTheDeadlineByTheDatabasesClock_thenRefusedAndItsExpiryIsNotLate() {
        Instant databaseNow = databaseNow();
        MovableClock behind = new MovableClock(databaseNow.minus(SKEW));
        ActivityId sale = sale(databaseNow);
        // Due at the instant read: by the time a statement runs, the database's clock has reached it (due > now fails).
        Reservation byBuyer = placed(sale, "buyer-1", databaseNow.minus(TIMEOUT), behind);
        Reservation byProvider = placed(sale, "buyer-2", databaseNow.minus(TIMEOUT), behind);

        assertThat(orders.markPaid(byBuyer.id(), behind.instant())).as("the buyer's confirmation").isFalse();
        assertThat(payments.markPaid(byProvider.id(), new PaymentReference("pay-" + token()), databaseNow,
                behind.instant())).as("the provider's notification").isEqualTo(PaymentMark.NOT_CHANGED);
        assertThat(status(byBuyer)).isEqualTo(ReservationStatus.ORDERED);

        List<ReservationId> expired = orders.expireDue(behind.instant(), 10).stream()
                .map(PendingRestore::reservationId).toList();

        assertThat(expired).as("a slow instance's pass expires what the database's clock says is due")
                .containsExactlyInAnyOrder(byBuyer.id(), byProvider.id());
        assertThat(status(byBuyer)).isEqualTo(ReservationStatus.EXPIRED);
        assertThat(orders.find(byBuyer.id()).orElseThrow().closedAt())
                .as("stamped by the clock that found it due, never before its deadline (ADR 104)")
                .isAfterOrEqualTo(databaseNow).isBefore(databaseNow.plus(SKEW));
    }

    @Test
    void givenAnInstanceMinutesAhead_whenItRunsTheExpiryBeforeTheDeadline_thenNothingExpiresUntilTheDatabaseReachesIt() {
        Instant databaseNow = databaseNow();
        MovableClock ahead = new MovableClock(databaseNow.plus(SKEW));
        ActivityId sale = sale(databaseNow);
        Instant dueAt = databaseNow.plusSeconds(3);
        Reservation order = placed(sale, "buyer-1", dueAt.minus(TIMEOUT), ahead);

        assertThat(orders.expireDue(ahead.instant(), 10)).as("ten minutes ahead").isEmpty();
        assertThat(status(order)).isEqualTo(ReservationStatus.ORDERED);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> !orders.expireDue(ahead.instant(), 10).isEmpty());

        assertThat(status(order)).isEqualTo(ReservationStatus.EXPIRED);
        assertThat(databaseNow()).as("expired only once the database's clock passed the deadline")
                .isAfterOrEqualTo(dueAt);
    }

    private Instant databaseNow() {
        return new JdbcTemplate(dataSource).queryForObject("SELECT UTC_TIMESTAMP(3)", LocalDateTime.class)
                .toInstant(ZoneOffset.UTC);
    }

    private ReservationStatus status(Reservation reservation) {
        return orders.find(reservation.id()).orElseThrow().status();
    }

    /** An order of a buyer answered at {@code reservedAt}, placed by an instance whose clock is {@code instance}. */
    private Reservation placed(ActivityId sale, String buyer, Instant reservedAt, MovableClock instance) {
        Reservation reservation = new Reservation(ReservationId.of(sale, token()), sale, new BuyerId(buyer),
                new RequestId("req-" + token().substring(0, 8)), List.of(new ReservationLine(new SkuId("a"), 1)),
                ReservationStatus.RESERVED, reservedAt);
        assertThat(orders.place(reservation, instance.instant())).isInstanceOf(OrderPlacement.Placed.class);
        return reservation;
    }

    private ActivityId sale(Instant databaseNow) {
        ActivityId id = new ActivityId("clock-" + token().substring(0, 16));
        activities.add(new Activity(id, "Deadline clock " + id, databaseNow.minus(Duration.ofHours(1)),
                databaseNow.plus(Duration.ofHours(1)), PurchaseLimit.ONE, TIMEOUT,
                List.of(new ActivityItem(new SkuId("a"), 10, null, 1))));
        return id;
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
