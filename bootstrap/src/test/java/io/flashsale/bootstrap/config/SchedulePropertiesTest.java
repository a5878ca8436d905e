package io.flashsale.bootstrap.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchedulePropertiesTest {

    private static final Duration ONE_SECOND = Duration.ofSeconds(1);

    @Test
    void givenIntervalsThatAreNoIntervals_whenBound_thenTheServiceRefusesToStartNamingTheProperty() {
        assertThatThrownBy(() -> new LifecycleProperties(true, Duration.ZERO, true, ONE_SECOND, 200, true, ONE_SECOND))
                .hasMessageContaining("flashsale.lifecycle.expiry-interval");
        assertThatThrownBy(() -> new LifecycleProperties(true, ONE_SECOND, true, Duration.ofSeconds(-5), 200, true, ONE_SECOND))
                .hasMessageContaining("flashsale.lifecycle.restore-sweep-interval");
        assertThatThrownBy(() -> new LifecycleProperties(true, ONE_SECOND, true, ONE_SECOND, 0, true, ONE_SECOND))
                .hasMessageContaining("flashsale.lifecycle.batch-size");
        assertThatThrownBy(() -> new WarmUpProperties(true, Duration.ZERO, ONE_SECOND))
                .hasMessageContaining("flashsale.warm-up.interval");
        assertThatThrownBy(() -> new ArchiveProperties(true, null))
                .hasMessageContaining("flashsale.archive.interval");
        assertThatThrownBy(() -> new TransferProperties(true, Duration.ZERO, ONE_SECOND, ONE_SECOND, true, ONE_SECOND))
                .hasMessageContaining("flashsale.transfers.sweep-interval");
        assertThatThrownBy(() -> new TransferProperties(true, ONE_SECOND, Duration.ZERO, ONE_SECOND, true, ONE_SECOND))
                .hasMessageContaining("flashsale.transfers.borrow-wait");
        assertThatThrownBy(() -> new TransferProperties(true, ONE_SECOND, ONE_SECOND, null, true, ONE_SECOND))
                .hasMessageContaining("flashsale.transfers.try-again-after");
        assertThatThrownBy(() -> new TransferProperties(true, ONE_SECOND, ONE_SECOND, ONE_SECOND, true,
                Duration.ZERO)).hasMessageContaining("flashsale.transfers.rebalance-interval");
    }

    @Test
    void givenANegativeLead_whenBound_thenRefusedButNoLeadMeansWarmUpAsTheSaleOpens() {
        assertThatThrownBy(() -> new WarmUpProperties(true, ONE_SECOND, Duration.ofSeconds(-1)))
                .hasMessageContaining("flashsale.warm-up.lead");

        assertThat(new WarmUpProperties(true, ONE_SECOND, Duration.ZERO).lead()).isZero();
    }

    @Test
    void givenReconciliationSettingsOutOfRange_whenBound_thenRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new ReconciliationProperties(true, Duration.ZERO, ONE_SECOND, 5, ONE_SECOND, 50, 0, 10))
                .hasMessageContaining("flashsale.reconciliation.interval");
        assertThatThrownBy(() -> new ReconciliationProperties(true, ONE_SECOND, Duration.ofSeconds(-1), 5, ONE_SECOND,
                50, 0, 10))
                .hasMessageContaining("flashsale.reconciliation.grace");
        assertThatThrownBy(() -> new ReconciliationProperties(true, ONE_SECOND, ONE_SECOND, 0, ONE_SECOND, 50, 0, 10))
                .hasMessageContaining("flashsale.reconciliation.attempts");
        assertThatThrownBy(() -> new ReconciliationProperties(true, ONE_SECOND, ONE_SECOND, 5, ONE_SECOND, -1, 0, 10))
                .hasMessageContaining("flashsale.reconciliation.audit-pages");
        assertThatThrownBy(() -> new ReconciliationProperties(true, ONE_SECOND, ONE_SECOND, 5, ONE_SECOND, 50, -1, 10))
                .hasMessageContaining("flashsale.reconciliation.read-pace");
        assertThatThrownBy(() -> new ReconciliationProperties(true, ONE_SECOND, ONE_SECOND, 5, ONE_SECOND, 50, 0, -1))
                .hasMessageContaining("flashsale.reconciliation.auto-repair-limit");

        assertThat(new ReconciliationProperties(true, ONE_SECOND, Duration.ZERO, 1, ONE_SECOND, 50, 0, 10).grace())
                .isZero();
    }

    @Test
    void givenTheJobLockSettings_whenAJobsHoldIsAskedFor_thenItIsTheShareOfItsIntervalButNeverAboveTheLongestHold() {
        ScheduleLockProperties lock = new ScheduleLockProperties(true, Duration.ofMinutes(5), 0.9);

        assertThat(lock.atLeastFor(Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(54));
        assertThat(lock.atLeastFor(Duration.ofHours(1))).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void givenJobLockSettingsOutOfRange_whenBound_thenRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new ScheduleLockProperties(true, Duration.ZERO, 0.9))
                .hasMessageContaining("flashsale.schedule.lock.at-most-for");
        assertThatThrownBy(() -> new ScheduleLockProperties(true, ONE_SECOND, 1.0))
                .hasMessageContaining("flashsale.schedule.lock.hold-share");
        assertThatThrownBy(() -> new ScheduleLockProperties(true, ONE_SECOND, -0.1))
                .hasMessageContaining("flashsale.schedule.lock.hold-share");
    }

    @Test
    void givenActivityCacheSettingsOutOfRange_whenBound_thenRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new ActivityCacheProperties(Duration.ofSeconds(-1), ONE_SECOND, 10, ONE_SECOND))
                .hasMessageContaining("flashsale.activity-cache.ttl");
        assertThatThrownBy(() -> new ActivityCacheProperties(ONE_SECOND, Duration.ofSeconds(-1), 10, ONE_SECOND))
                .hasMessageContaining("flashsale.activity-cache.unknown-ttl");
        assertThatThrownBy(() -> new ActivityCacheProperties(ONE_SECOND, ONE_SECOND, 0, ONE_SECOND))
                .hasMessageContaining("flashsale.activity-cache.max-size");
        assertThatThrownBy(() -> new ActivityCacheProperties(ONE_SECOND, ONE_SECOND, 1, Duration.ofMillis(-1)))
                .hasMessageContaining("flashsale.activity-cache.figures-fresh-for");

        var none = new ActivityCacheProperties(Duration.ZERO, Duration.ZERO, 1, Duration.ZERO);
        assertThat(none.ttl()).as("zero: no memory").isZero();
        assertThat(none.figuresFreshFor()).as("zero: every read asks the hot store").isZero();
    }
}
