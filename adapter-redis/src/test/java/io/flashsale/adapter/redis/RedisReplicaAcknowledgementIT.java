package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.ReplicaWait;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.RedisServerProcess.Persistence;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * WAIT-based acknowledgement (ADR 0097) against a real master and its replica, each a {@link RedisServerProcess} of
 * this test's own ({@code --replicaof} on a port of its own). The replica is frozen (SIGSTOP) to stand for one that does
 * not acknowledge: a reserve answer that waits for it takes the whole WAIT timeout, and with no acknowledgement asked
 * for nothing waits.
 */
@Timeout(90)
class RedisReplicaAcknowledgementIT {

    private static final SkuId SKU = new SkuId("unit");
    private static final Duration WAIT_TIMEOUT = Duration.ofMillis(800);

    private static RedisServerProcess master;
    private static RedisServerProcess replica;
    private static RedisClient replicaClient;
    private static StatefulRedisConnection<String, String> onReplica;
    private RedisHotStore store;

    @BeforeAll
    static void masterAndReplica() throws InterruptedException {
        master = RedisServerProcess.onFreePort(Persistence.NONE).start();
        replica = RedisServerProcess.onFreePort(Persistence.NONE,
                "--replicaof", "127.0.0.1", String.valueOf(master.port())).start();
        replicaClient = RedisClient.create(RedisURI.create("127.0.0.1", replica.port()));
        onReplica = replicaClient.connect();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!onReplica.sync().info("replication").contains("master_link_status:up")) {
            assertThat(System.nanoTime()).as("the replica links to its master within 30 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stopServers() {
        if (onReplica != null) {
            onReplica.close();
            replicaClient.shutdown();
        }
        if (replica != null) {
            replica.thawQuietly();
            replica.close();
        }
        if (master != null) {
            master.close();
        }
    }

    @AfterEach
    void closeStore() {
        replica.thawQuietly();
        if (store != null) {
            store.close();
        }
    }

    private StockReservationPort reservations(ReplicaAcknowledgement acknowledgement) {
        store = RedisHotStore.connect(new RedisHotStore.Settings("127.0.0.1", master.port(), null, 0,
                Duration.ofSeconds(2)), "fs:outbox:wait:" + UUID.randomUUID());
        return store.stockReservations(RedisStockReservationAdapter.DEFAULT_MAX_BATCH, acknowledgement);
    }

    @Test
    void givenOneReplicaAsked_whenTheReplicaIsUp_thenTheAnswerComesAfterTheReplicaHoldsTheReservation() {
        StockReservationPort stock = reservations(new ReplicaAcknowledgement(1, WAIT_TIMEOUT));
        Activity sale = sale();
        stock.warmUp(sale);

        for (int i = 0; i < 20; i++) {
            ReservationId id = newId(sale);
            assertThat(stock.reserve(request(id, i))).isInstanceOf(ReservationOutcome.Reserved.class);
            // No waiting here: WAIT returned only once the replica had acknowledged the script's writes.
            assertThat(onReplica.sync().hget(RedisKeys.reservations(sale.id()), id.value()))
                    .as("reservation %d on the replica when its buyer is answered", i).isNotNull();
        }
        assertThat(store.replicaAcknowledgements()).isEqualTo(new ReplicaAcknowledgement.Figures(20, 0));
    }

    @Test
    void givenOneReplicaAsked_whenTheReplicaDoesNotAcknowledge_thenTheAnswerWaitsTheTimeoutAndTheReservationStands()
            throws InterruptedException {
        StockReservationPort stock = reservations(new ReplicaAcknowledgement(1, WAIT_TIMEOUT));
        Activity sale = sale();
        stock.warmUp(sale);

        replica.freeze();
        long from = System.nanoTime();
        CompletableFuture<ReservationOutcome> waiting = CompletableFuture.supplyAsync(
                () -> stock.reserve(request(newId(sale), 1)));
        Thread.sleep(WAIT_TIMEOUT.toMillis() / 4);
        // The shared connection is not the one WAIT blocks: other commands go on meanwhile.
        long pingFrom = System.nanoTime();
        assertThat(store.ping()).isEqualTo("PONG");
        Duration ping = Duration.ofNanos(System.nanoTime() - pingFrom);
        assertThat(waiting).as("the answer still waits for the replica when the PING was answered").isNotDone();
        ReservationOutcome outcome = waiting.join();
        Duration took = Duration.ofNanos(System.nanoTime() - from);

        assertThat(took).as("the answer waited for WAIT's timeout").isGreaterThanOrEqualTo(WAIT_TIMEOUT);
        assertThat(outcome).as("a short WAIT refuses nothing: the reservation is in the master and its outbox")
                .isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(ping).as("a PING on the shared connection while a WAIT blocks").isLessThan(WAIT_TIMEOUT.dividedBy(2));
        assertThat(store.replicaAcknowledgements()).isEqualTo(new ReplicaAcknowledgement.Figures(0, 1));

        // Within a second of a short WAIT the master's calls skip theirs: a master without its replica (one a
        // failover promoted) does not hold every call for the whole timeout.
        long next = System.nanoTime();
        assertThat(stock.reserve(request(newId(sale), 2))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(Duration.ofNanos(System.nanoTime() - next)).isLessThan(WAIT_TIMEOUT.dividedBy(2));
        assertThat(store.replicaAcknowledgements()).isEqualTo(new ReplicaAcknowledgement.Figures(0, 2));

        replica.thaw();
        Thread.sleep(ReplicaWait.RECHECK_AFTER.toMillis());
        ReservationId after = newId(sale);
        assertThat(stock.reserve(request(after, 3))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(onReplica.sync().hget(RedisKeys.reservations(sale.id()), after.value()))
                .as("once the replica is back, answers wait for it again").isNotNull();
        assertThat(store.replicaAcknowledgements()).isEqualTo(new ReplicaAcknowledgement.Figures(1, 2));
    }

    @Test
    void givenNoReplicaAsked_whenTheReplicaDoesNotAcknowledge_thenNothingWaits() {
        StockReservationPort stock = reservations(ReplicaAcknowledgement.NONE);
        Activity sale = sale();
        stock.warmUp(sale);

        replica.freeze();
        long from = System.nanoTime();
        ReservationOutcome outcome = stock.reserve(request(newId(sale), 1));
        Duration took = Duration.ofNanos(System.nanoTime() - from);
        replica.thaw();

        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(took).as("answered once the master decided").isLessThan(WAIT_TIMEOUT.dividedBy(2));
        assertThat(store.replicaAcknowledgements()).isEqualTo(new ReplicaAcknowledgement.Figures(0, 0));
    }

    @Test
    void givenAWaitAsLongAsTheCommandTimeout_whenTheStoreIsAskedForIt_thenRefused() {
        store = RedisHotStore.connect(new RedisHotStore.Settings("127.0.0.1", master.port(), null, 0,
                Duration.ofSeconds(1)), "fs:outbox:wait:" + UUID.randomUUID());

        assertThatThrownBy(() -> store.stockReservations(RedisStockReservationAdapter.DEFAULT_MAX_BATCH,
                new ReplicaAcknowledgement(1, Duration.ofSeconds(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("command timeout");
    }

    private static ReservationId newId(Activity sale) {
        return ReservationId.of(sale.id(), UUID.randomUUID().toString().replace("-", ""));
    }

    private static ReservationRequest request(ReservationId id, int buyer) {
        String fresh = UUID.randomUUID().toString().replace("-", "");
        return new ReservationRequest(id, new BuyerId("b" + buyer + "-" + fresh), new RequestId("r" + fresh),
                List.of(new ReservationLine(SKU, 1)), Instant.now());
    }

    private static Activity sale() {
        Instant now = Instant.now();
        return new Activity(new ActivityId("wait-" + UUID.randomUUID().toString().substring(0, 8)), "wait",
                now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)), PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(SKU, 1_000, null, 1)));
    }
}
