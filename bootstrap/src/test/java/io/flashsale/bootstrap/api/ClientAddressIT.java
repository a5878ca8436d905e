package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-client limit (a burst of 3, then 1 a second) with no trusted proxy configured, the default: the test's
 * connection comes from 127.0.0.1, a peer no one trusts, so whatever {@code X-Forwarded-For} it sends is ignored and
 * every attempt counts against the connection's own address; loopback earns no exemption either.
 */
@Timeout(60)
class ClientAddressIT extends ApiTestBase {

    static final int BURST = 3;

    @DynamicPropertySource
    static void clientLimit(DynamicPropertyRegistry registry) {
        registry.add("flashsale.rate-limit.client.enabled", () -> "true");
        registry.add("flashsale.rate-limit.client.burst", () -> String.valueOf(BURST));
        registry.add("flashsale.rate-limit.client.per-second", () -> "1");
        registry.add("flashsale.rate-limit.key-prefix", () -> "fs:rl:it-" + RUN + ":");
    }

    @Test
    void givenAnUntrustedPeer_whenItRotatesXForwardedFor_thenEveryAttemptSharesOneClientBucket() {
        String sale = openSale(1000, item("tee", 1000));

        Attempts attempts = attempt(sale, 20, i -> "198.51.100." + (i + 1));

        attempts.assertOneBucket();
    }

    @Test
    void givenAnUntrustedPeer_whenItClaimsLoopbackInXForwardedFor_thenItGetsNoExemption() {
        String sale = openSale(1000, item("tee", 1000));

        Attempts attempts = attempt(sale, 20, i -> "203.0.113.9, 127.0.0.1");

        attempts.assertOneBucket();
    }

    Attempts attempt(String sale, int count, java.util.function.IntFunction<String> forwardedFor) {
        long started = System.nanoTime();
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            replies.add(reserve(sale, "buyer-" + i, lines(null, line("tee", 1)), "X-Forwarded-For", forwardedFor.apply(i)));
        }
        return new Attempts(replies, (System.nanoTime() - started) / 1e9);
    }

    record Attempts(List<Reply> replies, double seconds) {

        void assertOneBucket() {
            long admitted = replies.stream().filter(reply -> reply.status() == 202).count();
            List<Reply> refused = replies.stream().filter(reply -> reply.status() == 429).toList();
            assertThat(admitted + refused.size()).as("every attempt admitted or refused").isEqualTo(replies.size());
            // At most the burst plus what refilled (1 a second) while the attempts were sent.
            assertThat(admitted).as("%d sent in %.2f s", replies.size(), seconds)
                    .isLessThanOrEqualTo(BURST + (long) Math.ceil(seconds));
            assertProblem(refused.getFirst(), 429, "RATE_LIMITED");
            assertThat(refused.getFirst().json().path("limit").asString()).isEqualTo("client");
        }
    }
}
