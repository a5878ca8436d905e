package io.flashsale.benchmarks;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every correct strategy must show with real concurrency on the real servers before its figures mean
 * anything: exact counts, nothing oversold, no buyer over the limit, the store's own count in step with the books.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
abstract class CorrectStrategyContract {

    private InventoryStrategy strategy;

    protected abstract InventoryStrategy create();

    /** Crowd size of the race; the HTTP path uses fewer to stay quick. */
    protected int clients() {
        return 64;
    }

    @BeforeAll
    void open() {
        strategy = create();
    }

    @AfterAll
    void close() {
        if (strategy != null) {
            strategy.close();
        }
    }

    @RepeatedTest(3)
    void givenTwentyUnits_whenTwoHundredAttemptsRace_thenExactlyTwentyAreTakenAndNoneOversold() {
        SaleItem item = SaleItem.fresh(20, 1);
        strategy.stock(item);

        RunResult result = Crowd.run(strategy, item, clients(), Crowd.Budget.attempts(200));

        assertThat(result.firstError()).isNull();
        assertThat(result.attempts()).isEqualTo(200);
        assertThat(result.count(Take.TAKEN)).isEqualTo(20);
        assertThat(result.unitsTaken()).isEqualTo(20);
        assertThat(result.count(Take.SOLD_OUT) + result.count(Take.LIMIT)).isEqualTo(180);
        assertThat(result.oversold()).isZero();
        assertThat(result.limitViolations()).isZero();
        assertThat(result.unitsLeft()).isZero();
    }

    @Test
    void givenPlentyOfStock_whenEveryFourthAttemptRepeatsABuyer_thenEachBuyerGetsExactlyTheLimit() {
        SaleItem item = SaleItem.fresh(1_000, 1);
        strategy.stock(item);

        RunResult result = Crowd.run(strategy, item, clients(), Crowd.Budget.attempts(200));

        assertThat(result.firstError()).isNull();
        assertThat(result.count(Take.TAKEN)).isEqualTo(150);
        assertThat(result.count(Take.LIMIT)).isEqualTo(50);
        assertThat(result.limitViolations()).isZero();
        assertThat(result.unitsLeft()).isEqualTo(850);
    }
}
