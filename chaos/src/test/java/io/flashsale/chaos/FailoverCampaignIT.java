package io.flashsale.chaos;

import io.flashsale.chaos.harness.ChaosSystem;
import io.flashsale.chaos.schedule.ScheduleGenerator;
import io.flashsale.testsupport.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault campaign's master failovers: seeded schedules, each with a {@code MASTER_FAILOVER} (the master that serves
 * the schedule's sale is SIGKILLed under the workload, its replica takes over, the killed node comes back as a
 * replica), on a system whose Redis is a cluster of 3 masters with a replica each. A failover hits every sale of its
 * master, so these schedules have a system of their own, and run one at a time: each meets a whole cluster. Same
 * checks and output as {@link FaultCampaignIT}, under {@code chaos/target/failover-campaign/};
 * {@code -Dflashsale.failover.seed=N} replays schedule N.
 */
class FailoverCampaignIT {

    /**
     * Seeds that run on every build: 1 (a failover and a BROKER_PAUSE, 2 s payment windows), 2 (a failover alone) and
     * 4 (a failover while a service instance is paused); 2 and 4 sell in 3 slices, one a master, and lose slice 0's.
     */
    static final List<Long> FIXED_SEEDS = List.of(1L, 2L, 4L);

    /** {@link FaultCampaignIT}'s budget stops the campaign; this lifts the module's default timeout (5 minutes) off it. */
    @Test
    @Timeout(value = 6, unit = TimeUnit.HOURS)
    void givenSeededMasterFailovers_whenBuyersReserveThroughThem_thenEveryInvariantHoldsOverTheHistory() {
        assertThat(ServiceProcess.runnableJar()).as("the runnable jar: run this module from the root reactor "
                + "(./mvnw -pl chaos -am verify)").isRegularFile();
        int instances = Integer.getInteger("flashsale.fault.instances", 2);
        List<Long> seeds = FaultCampaignIT.seeds(FIXED_SEEDS, "flashsale.failover.seed",
                "flashsale.failover.fresh-seeds", 1);
        FaultCampaignIT.runWithinBudget("failover-campaign", seeds, 1, ScheduleGenerator.failovers(instances),
                work -> ChaosSystem.onRedisCluster(work, instances));
    }
}
