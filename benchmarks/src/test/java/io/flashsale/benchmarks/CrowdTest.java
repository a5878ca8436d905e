package io.flashsale.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The crowd judges from its own books: a strategy that hands out whatever is asked cannot look correct. */
@Timeout(30)
class CrowdTest {

    @Test
    void givenAStrategyThatNeverRefuses_whenTwentyAttemptsHitFiveUnits_thenTheBooksShowTheOversellAndTheRepeats() {
        SaleItem item = SaleItem.fresh(5, 1);
        var strategy = new AlwaysYes();
        strategy.stock(item);

        RunResult result = Crowd.run(strategy, item, 8, Crowd.Budget.attempts(20));

        assertThat(result.attempts()).isEqualTo(20);
        assertThat(result.unitsTaken()).isEqualTo(20);
        assertThat(result.oversold()).isEqualTo(15);
        // b2, b6, b10, b14 and b18 each came twice.
        assertThat(result.limitViolations()).isEqualTo(5);
        assertThat(result.unitsLeft()).isEqualTo(-15);
    }

    @Test
    void givenATimeBudget_whenTheCrowdRuns_thenItStopsAndCountsEveryAttempt() {
        SaleItem item = SaleItem.fresh(1_000_000, 1_000);
        var strategy = new AlwaysYes();
        strategy.stock(item);

        RunResult result = Crowd.run(strategy, item, 4, Crowd.Budget.lasting(Duration.ofMillis(200)));

        assertThat(result.elapsed()).isLessThan(Duration.ofSeconds(5));
        assertThat(result.attempts()).isPositive().isEqualTo(result.count(Take.TAKEN));
        assertThat(result.unitsLeft()).isEqualTo(item.stock() - result.attempts());
    }

    @Test
    void givenAttemptNumbers_thenEveryFourthRepeatsTheBuyerBeforeIt() {
        assertThat(Crowd.buyerOf(2)).isEqualTo("b2");
        assertThat(Crowd.buyerOf(3)).isEqualTo("b2");
        assertThat(Crowd.buyerOf(4)).isEqualTo("b4");
    }

    /** Says yes to everything and counts down, as a broken store would. */
    private static final class AlwaysYes implements InventoryStrategy {

        private final AtomicLong taken = new AtomicLong();
        private long stock;

        @Override
        public String name() {
            return "always yes";
        }

        @Override
        public void stock(SaleItem item) {
            stock = item.stock();
        }

        @Override
        public Take take(String sku, String buyer, int quantity) {
            taken.addAndGet(quantity);
            return Take.TAKEN;
        }

        @Override
        public long unitsLeft(String sku) {
            return stock - taken.get();
        }

        @Override
        public void close() {
        }
    }
}
