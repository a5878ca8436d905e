package io.flashsale.acceptance.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.service.InProcessInstance;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A deployment of two more service instances, in this JVM, on a shop database of their own (their schedules must not
 * archive or reconcile the other scenarios' sales), and what their metrics say of the scheduled jobs.
 */
public class InstanceSteps {

    private static final List<String> JOBS = List.of("reconciliation", "warm-up", "archive", "restore-sweep");
    private static final String ADMIN_TOKEN = "instances-admin-token-0123456789abcdef";

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    private Map<String, Double> runsBefore;
    private long watchedNanos;

    @After
    public void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
        instances.clear();
    }

    @Given("two service instances share one shop database, each scheduling every job every {int} milliseconds")
    public void twoInstances(int intervalMillis) {
        String database = TestServices.mariadb().freshDatabase("flashsale_it_instances");
        String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        instances.add(start(database, run, intervalMillis));
        instances.add(start(database, run, intervalMillis));
    }

    @When("both have been running for {int} seconds")
    public void bothRunFor(int seconds) throws InterruptedException {
        runsBefore = runsOverAll();
        long start = System.nanoTime();
        Thread.sleep(Duration.ofSeconds(seconds));
        watchedNanos = System.nanoTime() - start;
    }

    @Then("reconciliation, the loading of sales, archiving and the return of given-back stock each ran at most once per {int} milliseconds over both instances together")
    public void eachJobRanAtMostOncePer(int holdMillis) {
        Map<String, Double> runsAfter = runsOverAll();
        long watchedMillis = Duration.ofNanos(watchedNanos).toMillis();
        // Runs counted by the two reads of the metrics: one per hold at most, plus the ones under way at either read.
        long allowed = watchedMillis / holdMillis + 2;
        for (String job : JOBS) {
            double ran = runsAfter.get(job) - runsBefore.get(job);
            assertThat(ran).as("runs of %s in %d ms over both instances", job, watchedMillis)
                    .isBetween(1.0, (double) allowed);
        }
    }

    @When("the first instance stops")
    public void theFirstStops() {
        instances.removeFirst().close();
    }

    @Then("the second instance runs each of those jobs within {int} seconds")
    public void theSecondTakesOver(int seconds) {
        Map<String, Double> before = runsOf(instances.getFirst());
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Map<String, Double> now = runsOf(instances.getFirst());
            for (String job : JOBS) {
                assertThat(now.get(job)).as("runs of %s by the second instance", job).isGreaterThan(before.get(job));
            }
        });
    }

    private Map<String, Double> runsOverAll() {
        Map<String, Double> total = new LinkedHashMap<>();
        for (ConfigurableApplicationContext instance : instances) {
            runsOf(instance).forEach((job, runs) -> total.merge(job, runs, Double::sum));
        }
        return total;
    }

    /** What the instance's metrics endpoint says: passes of each job it ran holding the job's lock. */
    private static Map<String, Double> runsOf(ConfigurableApplicationContext instance) {
        int port = Integer.parseInt(instance.getEnvironment().getRequiredProperty("local.management.port"));
        FlashsaleApi operators = new FlashsaleApi(port, ADMIN_TOKEN);
        Map<String, Double> runs = new LinkedHashMap<>();
        for (String job : JOBS) {
            ApiAnswer metric = operators.send(operators.asAdmin(ApiCall.get("/actuator/metrics/flashsale.jobs.runs?tag=job:" + job)));
            assertThat(metric.status()).as(metric.describe()).isEqualTo(200);
            runs.put(job, metric.json().path("measurements").get(0).path("value").asDouble());
        }
        return runs;
    }

    private static ConfigurableApplicationContext start(String database, String run, int intervalMillis) {
        RedisEndpoint redis = TestServices.redis();
        String interval = intervalMillis + "ms";
        return InProcessInstance.start(redis.host(), redis.port(), database, "instances", run, ADMIN_TOKEN,
                "--flashsale.relay.enabled=false",
                "--flashsale.lifecycle.expiry-enabled=false",
                "--flashsale.lifecycle.restore-sweep-interval=" + interval,
                "--flashsale.warm-up.interval=" + interval,
                "--flashsale.archive.interval=" + interval,
                "--flashsale.reconciliation.interval=" + interval);
    }
}
