package io.flashsale.benchmarks;

import io.flashsale.benchmarks.redis.Interleaving;
import io.flashsale.benchmarks.redis.NaiveDecrThenIncrStrategy;
import io.flashsale.benchmarks.redis.NaiveGetThenDecrStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The naive strategies are in the comparison to show what goes wrong without an atomic step. These tests make the
 * race certain (a barrier holds every attempt between its read and its write until all have read) and check that
 * the crowd's books catch the damage; one also shows it happening without any forcing, within bounded rounds.
 */
@Timeout(60)
class NaiveStrategiesIT {

    /** Attempts 0..3 of the crowd: buyers b0, b1, b2 and b2 again. */
    private static final int ATTEMPTS = 4;

    @Test
    void givenThreeUnits_whenFourAttemptsReadBeforeAnyWrites_thenGetThenDecrOversellsAndBreaksTheLimit() {
        try (var strategy = new NaiveGetThenDecrStrategy(Servers.redis(), allReadFirst(ATTEMPTS))) {
            SaleItem item = SaleItem.fresh(3, 1);
            strategy.stock(item);

            RunResult result = Crowd.run(strategy, item, ATTEMPTS, Crowd.Budget.attempts(ATTEMPTS));

            assertThat(result.count(Take.TAKEN)).isEqualTo(4);
            assertThat(result.oversold()).isEqualTo(1);
            assertThat(result.limitViolations()).isEqualTo(1);
            assertThat(result.unitsLeft()).isEqualTo(-1);
        }
    }

    @Test
    void givenTenUnits_whenOneBuyerRacesItself_thenDecrThenIncrKeepsUnitsButBreaksTheLimit() {
        try (var strategy = new NaiveDecrThenIncrStrategy(Servers.redis(), allReadFirst(ATTEMPTS))) {
            SaleItem item = SaleItem.fresh(10, 1);
            strategy.stock(item);

            RunResult result = Crowd.run(strategy, item, ATTEMPTS, Crowd.Budget.attempts(ATTEMPTS));

            assertThat(result.count(Take.TAKEN)).isEqualTo(4);
            assertThat(result.oversold()).isZero();
            assertThat(result.limitViolations()).isEqualTo(1);
            assertThat(result.unitsLeft()).isEqualTo(6);
        }
    }

    @Test
    void givenFiveUnits_whenSixtyFourClientsRaceWithoutForcing_thenGetThenDecrOversellsWithinTenRounds() {
        try (var strategy = new NaiveGetThenDecrStrategy(Servers.redis(), Interleaving.NONE)) {
            long worstOversell = 0;
            for (int round = 0; round < 10 && worstOversell == 0; round++) {
                SaleItem item = SaleItem.fresh(5, 1_000);
                strategy.stock(item);
                RunResult result = Crowd.run(strategy, item, 64, Crowd.Budget.attempts(640));
                assertThat(result.unitsLeft()).isEqualTo(item.stock() - result.unitsTaken());
                worstOversell = Math.max(worstOversell, result.oversold());
            }
            assertThat(worstOversell).isPositive();
        }
    }

    @Test
    void givenFiveUnits_whenSixtyFourClientsRace_thenDecrThenIncrNeverSellsMoreThanTheStock() {
        try (var strategy = new NaiveDecrThenIncrStrategy(Servers.redis(), Interleaving.NONE)) {
            for (int round = 0; round < 5; round++) {
                SaleItem item = SaleItem.fresh(5, 1_000);
                strategy.stock(item);
                RunResult result = Crowd.run(strategy, item, 64, Crowd.Budget.attempts(640));
                assertThat(result.unitsTaken()).isEqualTo(5);
                assertThat(result.unitsLeft()).isZero();
            }
        }
    }

    /** Holds each attempt after its read until {@code parties} attempts have read. */
    private static Interleaving allReadFirst(int parties) {
        CyclicBarrier barrier = new CyclicBarrier(parties);
        return () -> {
            try {
                barrier.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("the forced interleaving did not happen", e);
            }
        };
    }
}
