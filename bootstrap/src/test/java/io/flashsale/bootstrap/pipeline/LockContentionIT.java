package io.flashsale.bootstrap.pipeline;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A payment or a cancellation that meets another transaction's lock on its order row in MariaDB: the server gives up
 * the wait after the session's {@code innodb_lock_wait_timeout} (1 s here, set on every connection of this context)
 * and the buyer gets 503 {@code BUSY}, never a 500; nothing moved, and once the lock is gone the same call goes through
 * (ADR 53). The fault campaign found two such 500s (docs/reliability.md).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LockContentionIT extends PipelineTestBase {

    @DynamicPropertySource
    static void shortLockWaits(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.hikari.connection-init-sql", () -> "SET SESSION innodb_lock_wait_timeout = 1");
    }

    @Test
    void givenTheOrderRowLockedElsewhere_whenItsBuyerPaysOrCancels_then503BusyAndAfterTheLockThePaymentGoesThrough()
            throws SQLException {
        String activityId = openSale(5);
        String id = reserveOne(activityId, "payer");
        awaitStatus(id, "ORDERED");

        try (Connection blocker = database.getConnection()) {
            blocker.setAutoCommit(false);
            lockOrderRow(blocker, id);

            ServiceClient.Reply payment = api().pay(id, "payer");
            ServiceClient.Reply cancellation = api().cancel(id, "payer");

            assertThat(payment.status()).as(payment.body()).isEqualTo(503);
            assertThat(payment.json().path("code").asString()).isEqualTo("BUSY");
            assertThat(cancellation.status()).as(cancellation.body()).isEqualTo(503);
            assertThat(cancellation.json().path("code").asString()).isEqualTo("BUSY");
            assertThat(reservation(id, "payer").path("status").asString()).as("nothing moved").isEqualTo("ORDERED");
            blocker.rollback();
        }

        ServiceClient.Reply paid = api().pay(id, "payer");
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(paid.json().path("status").asString()).isEqualTo("PAID");
    }

    private static void lockOrderRow(Connection connection, String reservationId) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(
                "SELECT status FROM purchase_order WHERE reservation_id = ? FOR UPDATE")) {
            lock.setString(1, reservationId);
            try (ResultSet row = lock.executeQuery()) {
                assertThat(row.next()).as("the order row of " + reservationId).isTrue();
            }
        }
    }

    private String reserveOne(String activityId, String buyer) {
        ServiceClient.Reply reply = reserveAsync(activityId, buyer).join();
        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        return reply.json().path("reservationId").asString();
    }

    private void awaitStatus(String reservationId, String status) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(100)).until(
                () -> reservation(reservationId, "payer"), (JsonNode read) -> read.path("status").asString().equals(status));
    }
}
