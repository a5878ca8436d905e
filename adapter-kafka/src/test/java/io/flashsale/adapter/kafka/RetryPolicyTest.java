package io.flashsale.adapter.kafka;

import org.junit.jupiter.api.Test;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryPolicyTest {

    @Test
    void givenTheDefaults_whenBackingOff_thenFiveGrowingWaitsSeparateSixAttempts() {
        var policy = new RetryPolicy(Duration.ofMillis(200), 2.0, Duration.ofSeconds(10), 6, Duration.ofSeconds(1));

        assertThat(waits(policy.backOff())).containsExactly(200L, 400L, 800L, 1600L, 3200L);
    }

    @Test
    void givenAMaxInterval_whenBackingOff_thenNoWaitIsLonger() {
        var policy = new RetryPolicy(Duration.ofMillis(100), 3.0, Duration.ofMillis(500), 5, Duration.ofSeconds(1));

        assertThat(waits(policy.backOff())).containsExactly(100L, 300L, 500L, 500L);
    }

    @Test
    void givenOneAttempt_whenBackingOff_thenThereIsNoRetry() {
        var policy = new RetryPolicy(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 1, Duration.ofSeconds(1));

        assertThat(waits(policy.backOff())).isEmpty();
    }

    @Test
    void givenNonsense_whenCreated_thenRefused() {
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofMillis(100), 0.5, Duration.ofSeconds(1), 3, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(1), 3, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 3, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** ADR 78: a store out of reach never exhausts the attempts; each wait is one probe interval. */
    @Test
    void givenStoresOutOfReach_whenBackingOff_thenTheAttemptsNeverRunOut() {
        var policy = new RetryPolicy(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 2, Duration.ofMillis(750));

        assertThat(waits(policy.whileStoresAreOut())).hasSize(100).containsOnly(750L);
    }

    private static List<Long> waits(BackOff backOff) {
        BackOffExecution execution = backOff.start();
        List<Long> waits = new ArrayList<>();
        for (long wait = execution.nextBackOff(); wait != BackOffExecution.STOP && waits.size() < 100; wait = execution.nextBackOff()) {
            waits.add(wait);
        }
        return waits;
    }
}
