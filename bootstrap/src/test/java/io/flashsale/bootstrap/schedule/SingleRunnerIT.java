package io.flashsale.bootstrap.schedule;

import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two service instances on one database, each with reconciliation, warm-up, archive, restore sweep and transfer sweep
 * scheduled every {@link #INTERVAL}: every job runs on one instance at a time, the instances together run it about
 * once per interval (not once each), and when one instance stops the other runs every job. Without the lock each instance would run
 * each job every interval plus a pass, and two starts of a job would come at most half that apart.
 */
class SingleRunnerIT {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    /** The lock's hold: the default share of the interval. */
    private static final Duration HOLD = Duration.ofMillis(900);
    /**
     * What a lock taken in the database and the recorded start of its pass may differ by on a loaded machine (seen:
     * 100 ms at a load average of 30). Without the lock two starts come at most half an interval and a pass apart.
     */
    private static final Duration START_JITTER = Duration.ofMillis(250);
    private static final Duration WATCHED = Duration.ofSeconds(8);

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_single_runner");
    private static final String RUN = UUID.randomUUID().toString().replace("-", "");

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void givenTwoInstancesOnOneDatabase_whenTheSchedulesRun_thenEachJobRunsOnOneAtATimeAndTheSurvivorTakesOver()
            throws InterruptedException {
        ConfigurableApplicationContext first = start("first");
        start("second");
        JobJournal.RUNS.clear();

        Thread.sleep(WATCHED.toMillis());
        List<JobJournal.Run> watched = List.copyOf(JobJournal.RUNS);

        for (String job : JobJournal.JOBS) {
            List<JobJournal.Run> runs = runsOf(job, watched);
            assertThat(runs).as("%s ran while both instances were up", job).hasSizeGreaterThanOrEqualTo(4);
            for (int i = 1; i < runs.size(); i++) {
                JobJournal.Run before = runs.get(i - 1);
                JobJournal.Run next = runs.get(i);
                assertThat(next.startNanos()).as("%s: %s began before %s had finished", job, next, before)
                        .isGreaterThanOrEqualTo(before.endNanos());
                assertThat(Duration.ofNanos(next.startNanos() - before.startNanos()))
                        .as("%s: two starts of the job within the lock's hold (%s then %s)", job, before, next)
                        .isGreaterThanOrEqualTo(HOLD.minus(START_JITTER));
            }
        }

        first.close();
        long firstStopped = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Map<String, Long> bySecondAfterStop = new LinkedHashMap<>();
            for (String job : JobJournal.JOBS) {
                bySecondAfterStop.put(job, JobJournal.RUNS.stream()
                        .filter(run -> run.job().equals(job) && run.startNanos() > firstStopped)
                        .filter(run -> run.instance().equals("second")).count());
            }
            assertThat(bySecondAfterStop).as("runs by the second instance after the first stopped")
                    .allSatisfy((job, runs) -> assertThat(runs).as(job).isGreaterThanOrEqualTo(3));
        });
        assertThat(JobJournal.RUNS).as("no pass of the stopped instance began after it stopped")
                .noneMatch(run -> run.instance().equals("first") && run.startNanos() > firstStopped);
    }

    private static List<JobJournal.Run> runsOf(String job, List<JobJournal.Run> runs) {
        return runs.stream().filter(run -> run.job().equals(job))
                .sorted(Comparator.comparingLong(JobJournal.Run::startNanos)).toList();
    }

    private ConfigurableApplicationContext start(String instance) {
        RedisEndpoint redis = TestServices.redis();
        String interval = INTERVAL.toMillis() + "ms";
        // As arguments: they win over application.yaml, as they do for an operator's command line.
        List<String> arguments = new ArrayList<>(List.of(
                "--test.instance=" + instance,
                "--server.port=0",
                "--management.server.port=0",
                "--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + redis.host(),
                "--spring.data.redis.port=" + redis.port(),
                "--spring.kafka.bootstrap-servers=" + TestServices.kafka().bootstrapServers(),
                "--flashsale.kafka.topic=flashsale-it-single-runner-" + RUN,
                "--flashsale.kafka.consumer.group-id=flashsale-it-single-runner-" + RUN,
                "--flashsale.redis.outbox-registry=fs:outbox:it-single-runner-" + RUN,
                "--flashsale.admin.token=single-runner-it-admin-token-0123456789abcdef",
                "--flashsale.relay.enabled=false",
                "--flashsale.lifecycle.expiry-enabled=false",
                "--flashsale.lifecycle.restore-sweep-interval=" + interval,
                "--flashsale.warm-up.interval=" + interval,
                "--flashsale.archive.interval=" + interval,
                "--flashsale.transfers.sweep-interval=" + interval,
                "--flashsale.transfers.rebalance-interval=" + interval,
                "--flashsale.reconciliation.interval=" + interval));
        arguments.addAll(TestServices.mariadb().springDatasource(DATABASE).arguments());
        ConfigurableApplicationContext context = new SpringApplicationBuilder(FlashsaleApplication.class,
                JobJournal.class).run(arguments.toArray(String[]::new));
        instances.add(context);
        return context;
    }
}
