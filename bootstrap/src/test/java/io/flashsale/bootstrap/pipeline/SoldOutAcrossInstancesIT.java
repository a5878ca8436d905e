package io.flashsale.bootstrap.pipeline;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sold-out fast path across two service instances sharing Redis, Kafka and MariaDB: an instance that learnt
 * "sold out" sells again within 100 ms of a cancellation on the other, and under a crowd on both, every restored unit
 * is resold, none twice.
 */
@Timeout(180)
class SoldOutAcrossInstancesIT extends PipelineTestBase {

    private static final long WINDOW_MS = 100;
    private static ConfigurableApplicationContext secondInstance;

    @Autowired
    Environment environment;

    @BeforeEach
    void startTheSecondInstance() {
        if (secondInstance == null) {
            // Long enough that only the cancellation's notice, not the memory running out, can make it sell again.
            secondInstance = SecondInstance.start(environment, Map.of("flashsale.known-refusals.memory", "60s"));
        }
    }

    @AfterAll
    static void stopTheSecondInstance() {
        if (secondInstance != null) {
            secondInstance.close();
            secondInstance = null;
        }
    }

    private ServiceClient other() {
        return SecondInstance.client(secondInstance, ADMIN_TOKEN);
    }

    /**
     * Until the order pipeline made it an order in both stores: a cancellation then gives the unit back in Redis at
     * once (one cancelled while MySQL and Redis disagree for a moment is given back by the restore sweep, later).
     */
    private void awaitOrdered(String reservationId, String buyer) {
        await().atMost(WITHIN).pollInterval(java.time.Duration.ofMillis(50)).until(
                () -> "ORDERED".equals(reservation(reservationId, buyer).path("status").asString()));
    }

    private static ServiceClient.Reply reserve(ServiceClient instance, String sale, String buyer) {
        return instance.reserveAsync(sale, buyer).join();
    }

    private static void assertSoldOut(ServiceClient.Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(409);
        assertThat(reply.json().path("code").asString()).isEqualTo("SOLD_OUT");
    }

    @Test
    void givenTheOtherInstanceKnowsTheSkuSoldOut_whenACancellationHereReturnsTheUnit_thenItSellsThereWithinTheWindow()
            throws InterruptedException {
        String sale = openSale(1);
        ServiceClient.Reply first = reserve(api(), sale, "first");
        assertThat(first.status()).as(first.body()).isEqualTo(202);
        String firstId = first.json().path("reservationId").asString();
        awaitOrdered(firstId, "first");
        assertSoldOut(reserve(other(), sale, "late-1"));
        assertSoldOut(reserve(other(), sale, "late-2"));

        ServiceClient.Reply cancelled = api().cancel(firstId, "first");
        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        long cancelledAt = System.nanoTime();
        Thread.sleep(WINDOW_MS);

        ServiceClient.Reply resold = reserve(other(), sale, "late-3");
        // The window is measured in RedisStockReturnsIT; on a box loaded by many builds a notice may come a little
        // late, so this end-to-end check waits for it (the 60 s memory rules out healing by expiry).
        for (int attempt = 4; resold.status() == 409 && System.nanoTime() - cancelledAt < 2_000_000_000L; attempt++) {
            Thread.sleep(10);
            resold = reserve(other(), sale, "late-" + attempt);
        }
        assertThat(resold.status()).as("%s; Redis %s; the cancelled one as A sees it %s, as B sees it %s", resold.body(),
                redisLedger(sale), api().send("GET", "/api/v1/reservations/" + firstId, null, "Authorization",
                        bearerOf("first")).body(),
                other().send("GET", "/api/v1/reservations/" + firstId, null, "Authorization",
                        bearerOf("first")).body()).isEqualTo(202);
        assertSoldOut(reserve(api(), sale, "after-resale"));
    }

    @RepeatedTest(3)
    void givenACrowdOnBothInstances_whenEveryUnitIsCancelled_thenEachIsResoldOnceAndNoneTwice() throws Exception {
        int units = 10;
        String sale = openSale(units);
        ServiceClient[] instances = {api(), other()};
        Map<String, String> firstBuyers = new LinkedHashMap<>();
        for (int i = 0; i < units; i++) {
            String buyer = "first-" + i;
            ServiceClient.Reply reply = reserve(instances[i % 2], sale, buyer);
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            firstBuyers.put(reply.json().path("reservationId").asString(), buyer);
        }
        firstBuyers.forEach(this::awaitOrdered);

        AtomicBoolean crowding = new AtomicBoolean(true);
        AtomicInteger buyers = new AtomicInteger();
        Set<String> resold = ConcurrentHashMap.newKeySet();
        List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService crowd = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> members = new ArrayList<>();
            try {
                for (int member = 0; member < 8; member++) {
                    ServiceClient instance = instances[member % 2];
                    members.add(crowd.submit(() -> {
                        while (crowding.get()) {
                            String buyer = "crowd-" + buyers.incrementAndGet();
                            ServiceClient.Reply reply = reserve(instance, sale, buyer);
                            if (reply.status() == 202) {
                                resold.add(buyer);
                            } else if (reply.status() != 409) {
                                unexpected.add(reply.status() + " " + reply.body());
                            }
                        }
                    }));
                }
                Thread.sleep(300);
                List<CompletableFuture<ServiceClient.Reply>> cancellations = new ArrayList<>();
                int i = 0;
                for (var reservation : firstBuyers.entrySet()) {
                    cancellations.add(instances[i++ % 2].cancelAsync(reservation.getKey(), reservation.getValue()));
                }
                int c = 0;
                for (var reservation : firstBuyers.entrySet()) {
                    ServiceClient.Reply cancelled = answered(cancellations.get(c), instances[c++ % 2],
                            reservation.getKey(), reservation.getValue());
                    assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
                }

                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (resold.size() < units && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                // The crowd keeps coming a while longer: nothing more may be sold.
                Thread.sleep(500);
            } finally {
                crowding.set(false);
            }
            for (Future<?> member : members) {
                member.get(60, TimeUnit.SECONDS);
            }
        }

        assertThat(unexpected).isEmpty();
        assertThat(resold).as("every restored unit resold, none twice").hasSize(units);
        assertThat(redisLedger(sale).ledger().available()).isZero();
    }

    /**
     * A cancellation's answer, asked again while it is 503 "try again" as a buyer's client would: the whole crowd's
     * cancellations arrive at once and may wait longer than the test pool's 1 s for a database connection on a busy
     * machine. A repeat is safe: a cancelled reservation is answered 200 again.
     */
    private static ServiceClient.Reply answered(CompletableFuture<ServiceClient.Reply> first, ServiceClient instance,
                                                String reservationId, String buyer) throws InterruptedException {
        ServiceClient.Reply reply = first.join();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (reply.status() == 503 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            reply = instance.cancel(reservationId, buyer);
        }
        return reply;
    }
}
