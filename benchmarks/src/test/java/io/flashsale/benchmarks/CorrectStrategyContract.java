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
 * A strategy with bounded retries may give up on an attempt ({@link #mayGiveUp()}); then each give-up may cost at
 * most one sale, and the counts must still add up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
abstract class CorrectStrategyContract {

    private static final int ATTEMPTS = 200;

    private InventoryStrategy strategy;

    protected abstract InventoryStrategy create();

    /** Crowd size of the race; the HTTP path uses fewer to stay quick. */
    protected int clients() {
        return 64;
    }

    /** Whether the strategy may answer {@link Take#GAVE_UP} (bounded retries); the others never may. */
    protected boolean mayGiveUp() {
        return false;
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

        RunResult result = Crowd.run(strategy, item, clients(), Crowd.Budget.attempts(ATTEMPTS));

        assertBooksBalance(result, item);
        assertTaken(result, 20);
        assertThat(result.oversold()).isZero();
    }

    @Test
    void givenPlentyOfStock_whenEveryFourthAttemptRepeatsABuyer_thenEachBuyerGetsExactlyTheLimit() {
        SaleItem item = SaleItem.fresh(1_000, 1);
        strategy.stock(item);

        RunResult result = Crowd.run(strategy, item, clients(), Crowd.Budget.attempts(ATTEMPTS));

        assertBooksBalance(result, item);
        // 150 distinct buyers (attempts 4k+3 repeat the buyer of 4k+2), limit 1 each.
        assertTaken(result, 150);
        assertThat(result.count(Take.SOLD_OUT)).isZero();
    }

    /** Every attempt answered, none failed, no buyer over the limit, the store's count in step with the books. */
    private void assertBooksBalance(RunResult result, SaleItem item) {
        assertThat(result.firstError()).isNull();
        assertThat(result.attempts()).isEqualTo(ATTEMPTS);
        assertThat(result.count(Take.TAKEN) + result.count(Take.SOLD_OUT) + result.count(Take.LIMIT)
                + result.count(Take.GAVE_UP)).isEqualTo(ATTEMPTS);
        assertThat(result.limitViolations()).isZero();
        assertThat(result.unitsTaken()).isEqualTo(result.count(Take.TAKEN));
        assertThat(result.unitsLeft()).isEqualTo(item.stock() - result.unitsTaken());
        if (!mayGiveUp()) {
            assertThat(result.count(Take.GAVE_UP)).isZero();
        }
    }

    /** Exactly {@code expected} taken; with give-ups never more, and at most one sale lost per give-up. */
    private static void assertTaken(RunResult result, long expected) {
        long gaveUp = result.count(Take.GAVE_UP);
        assertThat(result.count(Take.TAKEN)).isBetween(expected - gaveUp, expected);
    }
}
