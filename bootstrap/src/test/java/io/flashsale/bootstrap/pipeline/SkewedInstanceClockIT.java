package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.web.security.NotificationSignature;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ADR 82 over HTTP: the payment deadline is the buyer's answer (Redis's clock) plus the timeout, and it is judged by
 * the database's clock, so an instance whose own clock runs minutes ahead neither refuses a payment in time nor
 * expires an order early, and one whose clock runs behind still expires an unpaid order at its deadline. The whole
 * service runs on a clock the test shifts.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SkewedInstanceClockIT extends PipelineTestBase {

    private static final String PATH = "/api/v1/payments/notifications";
    /** Inside the notification signature's 5-minute tolerance, which the instance judges by its own clock. */
    private static final Duration SKEW = Duration.ofMinutes(2);
    private static final NotificationSignature PROVIDER =
            new NotificationSignature(NOTIFICATION_SECRET, Duration.ofMinutes(5), Clock.systemUTC());

    static final ShiftedClock CLOCK = new ShiftedClock();

    @TestConfiguration(proxyBeanMethods = false)
    static class ShiftedClockConfiguration {

        @Bean
        @Primary
        Clock shiftedClock() {
            return CLOCK;
        }
    }

    @AfterEach
    void clockBack() {
        CLOCK.shift = Duration.ZERO;
    }

    @Test
    void givenAnInstanceMinutesAhead_whenTheProviderPaysWithinTheTimeout_thenTheOrderIsPaidNotExpired() {
        String activityId = api().openSale(2, 30L);
        String id = ordered(activityId, "ahead-payer");
        CLOCK.shift = SKEW;
        assertThat(CLOCK.instant()).as("by its own clock the deadline has passed")
                .isAfter(Instant.now().plusSeconds(30));
        String body = notification(id);

        ServiceClient.Reply paid = send("POST", PATH, body, NotificationSignature.HEADER,
                PROVIDER.header(Instant.now().getEpochSecond(), body.getBytes(UTF_8)));

        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(paid.json().path("status").asString()).isEqualTo("PAID");
        assertThat(reservation(id, "ahead-payer").path("status").asString()).isEqualTo("PAID");
    }

    @Test
    void givenAnInstanceMinutesAhead_whenExpiryPassesRunWithinTheTimeout_thenTheUnpaidOrderStaysOrdered() {
        String activityId = api().openSale(2, 30L);
        String id = ordered(activityId, "ahead-waiter");
        CLOCK.shift = SKEW;

        // The expiry pass runs every 200 ms here: a pass by the instance's clock would expire it at once.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> reservation(id, "ahead-waiter").path("status").asString(), "ORDERED"::equals);
    }

    @Test
    void givenAnInstanceMinutesBehind_whenTheDeadlinePasses_thenTheUnpaidOrderExpiresAtIt() {
        String activityId = api().openSale(2, 2L);
        CLOCK.shift = SKEW.negated();
        String id = ordered(activityId, "behind-waiter");

        // By its own clock the deadline is two minutes away; by the database's it passes in two seconds.
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(200))
                .until(() -> reservation(id, "behind-waiter").path("status").asString(), "EXPIRED"::equals);
    }

    private String ordered(String activityId, String buyer) {
        ServiceClient.Reply reply = reserveAsync(activityId, buyer).join();
        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        String id = reply.json().path("reservationId").asString();
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(100))
                .until(() -> reservation(id, buyer).path("status").asString(), "ORDERED"::equals);
        return id;
    }

    private static String notification(String reservationId) {
        return "{\"reservationId\":\"" + reservationId + "\",\"paymentReference\":\"pay_"
                + UUID.randomUUID().toString().replace("-", "") + "\",\"paidAt\":\"" + Instant.now().minusSeconds(1)
                + "\"}";
    }

    /** The system's UTC clock moved by a shift the test sets. */
    static final class ShiftedClock extends Clock {

        volatile Duration shift = Duration.ZERO;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the service runs in UTC");
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(shift);
        }
    }
}
