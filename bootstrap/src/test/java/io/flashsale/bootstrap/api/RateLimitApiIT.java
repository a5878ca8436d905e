package io.flashsale.bootstrap.api;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default per-buyer limit (a burst of 10, then 5 a second) on the running service: one buyer hammering gets 429s
 * with the rate-limit headers and nothing reserved beyond what was admitted; another buyer is not slowed.
 */
@Timeout(60)
class RateLimitApiIT extends ApiTestBase {

    @Autowired
    MeterRegistry meters;

    @Test
    void givenTheDefaultLimit_whenOneBuyerHammers_thenTheBurstIsAdmittedAndTheRestGet429WithHeaders()
            throws Exception {
        String sale = openSale(1000, "{\"skuId\":\"tee\",\"stock\":1000}");
        double refusedBefore = refusals("buyer");

        // Twenty at once from parallel connections: one after the other, on a loaded machine, they can take the two
        // seconds the bucket needs to refill ten, and then every one would be admitted.
        long started = System.nanoTime();
        List<Reply> replies;
        try (ExecutorService connections = Executors.newFixedThreadPool(20)) {
            List<Future<Reply>> sent = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                sent.add(connections.submit(() -> reserve(sale, "hammering", lines(null, line("tee", 1)))));
            }
            replies = new ArrayList<>();
            for (Future<Reply> reply : sent) {
                replies.add(reply.get(30, TimeUnit.SECONDS));
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        Reply patient = reserve(sale, "patient", lines(null, line("tee", 1)));

        long admitted = replies.stream().filter(reply -> reply.status() == 202).count();
        List<Reply> refused = replies.stream().filter(reply -> reply.status() == 429).toList();
        // Ten at once, plus whatever refilled (5 a second) while the twenty were on their way.
        assertThat(admitted).isBetween(10L, 10L + (long) Math.ceil(seconds * 5));
        assertThat(refused).as("twenty sent in %.2f s", seconds).isNotEmpty();
        assertThat(admitted + refused.size()).isEqualTo(20);
        Reply first = refused.getFirst();
        assertProblem(first, 429, "RATE_LIMITED");
        assertThat(first.json().path("limit").asString()).isEqualTo("buyer");
        assertThat(Long.parseLong(first.header("Retry-After"))).isEqualTo(1);
        assertThat(first.header("RateLimit-Limit")).isEqualTo("10");
        assertThat(first.header("RateLimit-Remaining")).isEqualTo("0");
        assertThat(Long.parseLong(first.header("RateLimit-Reset"))).isBetween(1L, 2L);
        assertThat(patient.status()).as(patient.body()).isEqualTo(202);
        assertThat(ledger(sale, "tee")[1]).as("reserved units").isEqualTo(admitted + 1);
        assertThat(refusals("buyer") - refusedBefore).isEqualTo(refused.size());
    }

    @Test
    void aRefusedBuyerIsAdmittedAgainAfterRetryAfter() throws InterruptedException {
        String sale = openSale(1000, "{\"skuId\":\"tee\",\"stock\":1000}");
        Reply refused = null;
        for (int i = 0; i < 30 && refused == null; i++) {
            Reply reply = reserve(sale, "eager", lines(null, line("tee", 1)));
            if (reply.status() == 429) {
                refused = reply;
            }
        }
        assertThat(refused).isNotNull();

        Thread.sleep(Long.parseLong(refused.header("Retry-After")) * 1000);

        Reply again = reserve(sale, "eager", lines(null, line("tee", 1)));
        assertThat(again.status()).as(again.body()).isEqualTo(202);
    }

    private double refusals(String limit) {
        return meters.get("flashsale.ratelimit.refusals").tag("limit", limit).counter().count();
    }
}
