package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-client limit (a burst of 3, then 1 a second) behind a trusted proxy: the test's connection comes from
 * 127.0.0.1, configured as the proxy, so the client is the address it forwards in {@code X-Forwarded-For}.
 */
@Timeout(60)
class TrustedProxyIT extends ApiTestBase {

    static final int BURST = 3;

    @DynamicPropertySource
    static void clientLimitBehindAProxy(DynamicPropertyRegistry registry) {
        registry.add("flashsale.http.trusted-proxies", () -> "127.0.0.1");
        registry.add("flashsale.rate-limit.client.enabled", () -> "true");
        registry.add("flashsale.rate-limit.client.burst", () -> String.valueOf(BURST));
        registry.add("flashsale.rate-limit.client.per-second", () -> "1");
        registry.add("flashsale.rate-limit.key-prefix", () -> "fs:rl:it-" + RUN + ":");
    }

    @Test
    void givenATrustedProxy_whenItForwardsDifferentClients_thenEachHasItsOwnBucket() {
        String sale = openSale(1000, item("tee", 1000));
        String network = "198.51." + ThreadLocalRandom.current().nextInt(256) + ".";

        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // The proxy appends the peer it saw: the client's own claim before it is not believed.
            replies.add(reserve(sale, "buyer-" + i, lines(null, line("tee", 1)),
                    "X-Forwarded-For", "127.0.0.1, " + network + (i + 1)));
        }

        assertThat(replies).allSatisfy(reply -> assertThat(reply.status()).as(reply.body()).isEqualTo(202));
    }

    @Test
    void givenATrustedProxy_whenItForwardsOneClientManyTimes_thenThatClientIsLimited() {
        String sale = openSale(1000, item("tee", 1000));
        String client = "203.0.113." + (1 + ThreadLocalRandom.current().nextInt(254));

        long started = System.nanoTime();
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            replies.add(reserve(sale, "buyer-" + i, lines(null, line("tee", 1)), "X-Forwarded-For", client));
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        long admitted = replies.stream().filter(reply -> reply.status() == 202).count();
        assertThat(admitted).as("12 sent in %.2f s", seconds).isLessThanOrEqualTo(BURST + (long) Math.ceil(seconds));
        Reply refused = replies.stream().filter(reply -> reply.status() == 429).findFirst().orElseThrow();
        assertProblem(refused, 429, "RATE_LIMITED");
        assertThat(refused.json().path("limit").asString()).isEqualTo("client");
    }
}
