package io.flashsale.chaos.lincheck;

import io.flashsale.adapter.redis.RedisStockReservationAdapter;
import io.flashsale.application.reference.InMemoryStockReservations;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * Lincheck as an independent referee of the reserve script's atomicity: concurrent scenarios of reserve (with
 * replays), release and confirm on the real Redis adapter, each result checked for a linearization against the
 * sequential in-memory reference ({@link InMemoryStockReservations}, the contract suite's reference store). Stress
 * mode: real threads, real Redis; every scenario on a fresh sale.
 */
@Param(name = "buyer", gen = IntGen.class, conf = "0:1")
@Param(name = "request", gen = IntGen.class, conf = "0:2")
@Param(name = "quantity", gen = IntGen.class, conf = "1:2")
public class RedisReservationsLincheckIT {

    private static final RedisClient CLIENT = RedisClient.create(TestServices.redis().uri());
    private static final StatefulRedisConnection<String, String> CONNECTION = CLIENT.connect();

    private final Reservations<RedisStockReservationAdapter> reservations =
            new Reservations<>(new RedisStockReservationAdapter(CONNECTION));

    @Operation
    public String reserve(@Param(name = "buyer") int buyer, @Param(name = "request") int request,
                          @Param(name = "quantity") int quantity) {
        return reservations.reserve(buyer, request, quantity);
    }

    @Operation
    public boolean release(@Param(name = "buyer") int buyer, @Param(name = "request") int request) {
        return reservations.release(buyer, request);
    }

    @Operation
    public boolean confirm(@Param(name = "buyer") int buyer, @Param(name = "request") int request) {
        return reservations.confirm(buyer, request);
    }

    @Operation
    public String ledger() {
        return reservations.ledger();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void givenConcurrentReserveReleaseConfirm_whenRunOnRedis_thenEveryResultIsLinearizableToTheReference() {
        new StressOptions()
                .iterations(20)
                .invocationsPerIteration(30)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .sequentialSpecification(Reference.class)
                .check(RedisReservationsLincheckIT.class);
    }

    @AfterAll
    static void closeRedis() {
        CONNECTION.close();
        CLIENT.shutdown();
    }

    /** The same operations on the sequential in-memory reference store. */
    public static class Reference {

        private final Reservations<InMemoryStockReservations> reservations =
                new Reservations<>(new InMemoryStockReservations());

        public String reserve(int buyer, int request, int quantity) {
            return reservations.reserve(buyer, request, quantity);
        }

        public boolean release(int buyer, int request) {
            return reservations.release(buyer, request);
        }

        public boolean confirm(int buyer, int request) {
            return reservations.confirm(buyer, request);
        }

        public String ledger() {
            return reservations.ledger();
        }
    }
}
