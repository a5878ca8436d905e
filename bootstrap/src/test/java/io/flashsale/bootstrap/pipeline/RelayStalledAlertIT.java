package io.flashsale.bootstrap.pipeline;

import io.flashsale.bootstrap.alerts.AlertRuleFile;
import io.flashsale.bootstrap.alerts.Promtool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stalled-relay alert against the service itself: the relay is stopped, buyers reserve, and the service's
 * {@code /actuator/prometheus} is scraped every {@value #SCRAPE_SECONDS} s as Prometheus would, for long enough that
 * the rule's condition holds past its {@code for:}; then the relay runs again and the backlog drains. The recorded
 * samples become promtool's input series, evaluated against docs/ops/alerts.yml as it is: the alert is silent before
 * the oldest reservation has waited long enough, firing while the relay is stopped, and silent again once relayed.
 * The outbox's age runs {@value #FASTER} times as fast as the wall clock meanwhile ({@link OutboxAgeClock}), and the
 * scrapes come as often: the rule's two minutes pass in 24 seconds, each scrape {@value #SCRAPE_SECONDS} s of the
 * series.
 */
class RelayStalledAlertIT extends PipelineTestBase {

    private static final String ALERT = "FlashsaleRelayStalled";
    private static final int SCRAPE_SECONDS = 5;
    /** How many times as fast as the wall clock the outbox's age and the scrapes run. */
    private static final int FASTER = 5;
    /** In the series' time: more than 30 s (the threshold) plus 1 min (the rule's for:) plus an evaluation's slack. */
    private static final Duration STOPPED = Duration.ofSeconds(115);
    private static final Duration RUNNING_AGAIN = Duration.ofSeconds(30);
    private static final List<String> RECORDED = List.of("flashsale_outbox_oldest_age_seconds",
            "flashsale_outbox_depth", "flashsale_relay_relayed_total");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)$");

    @Test
    @Timeout(120)
    void givenTheRelayStopped_whenReservationsWait_thenTheStalledRelayAlertFiresOnTheScrapedSeriesAndClearsAfter()
            throws IOException {
        Promtool promtool = Promtool.requiredInCiElseSkip("RelayStalledAlertIT");
        String sale = openSale(20);
        Recording recording = new Recording();
        relayLoop.stop();
        OutboxAgeClock.INSTANCE.runFaster(FASTER);
        try {
            try {
                recording.scrape();
                reserveOneEach(sale, 5);
                recording.scrapeFor(STOPPED);
            } finally {
                relayLoop.start();
            }
            int stoppedUntil = recording.samples();
            recording.scrapeFor(RUNNING_AGAIN);
            judge(promtool, recording, stoppedUntil);
        } finally {
            OutboxAgeClock.INSTANCE.runAtWallSpeed();
        }
    }

    private static void judge(Promtool promtool, Recording recording, int stoppedUntil) throws IOException {
        assertThat(recording.last("flashsale_outbox_oldest_age_seconds")).as("age once relayed again").isZero();
        Path tests = recording.writeRuleTest(List.of(
                expectation(Duration.ofSeconds(25), false),
                expectation(Duration.ofSeconds((long) (stoppedUntil - 1) * SCRAPE_SECONDS), true),
                expectation(Duration.ofSeconds((long) (recording.samples() - 1) * SCRAPE_SECONDS), false)));
        Promtool.Result result = promtool.run(tests.getParent(), "test", "rules", tests.toString());
        assertThat(result.exitCode()).as("%s%n%s", result.output(), Files.readString(tests)).isZero();
    }

    private static Map<String, Object> expectation(Duration at, boolean firing) {
        Map<String, Object> rule = AlertRuleFile.rule(ALERT);
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("eval_time", at.toSeconds() + "s");
        check.put("alertname", ALERT);
        check.put("exp_alerts", firing
                ? List.of(Map.of("exp_labels", rule.get("labels"), "exp_annotations", rule.get("annotations")))
                : new ArrayList<>());
        return check;
    }

    /**
     * Scrapes of the actuator, one every {@value #SCRAPE_SECONDS} s of the series ({@value #FASTER} times as often on
     * the wall clock), kept as promtool's input series.
     */
    private final class Recording {

        private final Map<String, List<String>> series = new LinkedHashMap<>();
        private int samples;
        private long nextAt = System.nanoTime();

        /** Scrapes for this long of the series' time. */
        void scrapeFor(Duration duration) {
            long until = System.nanoTime() + duration.toNanos() / FASTER;
            while (nextAt < until) {
                scrape();
            }
        }

        /** Waits for the next scrape's moment (a fixed cadence, as Prometheus keeps), then scrapes. */
        void scrape() {
            for (long wait = nextAt - System.nanoTime(); wait > 0; wait = nextAt - System.nanoTime()) {
                LockSupport.parkNanos(wait);
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("interrupted while waiting to scrape");
                }
            }
            nextAt += Duration.ofSeconds(SCRAPE_SECONDS).toNanos() / FASTER;
            ServiceClient.Reply reply = operator().asAdmin("GET", "/actuator/prometheus", null);
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            reply.body().lines().map(SAMPLE::matcher).filter(Matcher::matches)
                    .filter(sample -> RECORDED.contains(sample.group(1))).forEach(sample -> {
                        String name = sample.group(1) + (sample.group(2) == null ? "" : sample.group(2));
                        List<String> values = series.computeIfAbsent(name, key -> new ArrayList<>());
                        while (values.size() < samples) {
                            values.add("_");
                        }
                        values.add(sample.group(3));
                    });
            samples++;
        }

        int samples() {
            return samples;
        }

        double last(String metric) {
            return series.entrySet().stream().filter(entry -> entry.getKey().startsWith(metric))
                    .mapToDouble(entry -> Double.parseDouble(entry.getValue().getLast())).max().orElseThrow();
        }

        /** A promtool rule test of the recorded series against docs/ops/alerts.yml, in target/alerts. */
        Path writeRuleTest(List<Map<String, Object>> checks) throws IOException {
            List<Map<String, Object>> input = new ArrayList<>();
            series.forEach((name, values) -> input.add(Map.of("series", name, "values", String.join(" ", values))));
            Map<String, Object> test = new LinkedHashMap<>();
            test.put("interval", SCRAPE_SECONDS + "s");
            test.put("input_series", input);
            test.put("alert_rule_test", checks);
            Map<String, Object> file = new LinkedHashMap<>();
            file.put("rule_files", List.of(Promtool.RULES.toString()));
            file.put("evaluation_interval", SCRAPE_SECONDS + "s");
            file.put("tests", List.of(test));
            DumperOptions options = new DumperOptions();
            options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
            options.setWidth(10_000);
            Path directory = Files.createDirectories(Path.of("target", "alerts"));
            Path tests = directory.resolve("relay-stalled-" + RUN + ".yml").toAbsolutePath();
            Files.writeString(tests, new Yaml(options).dump(file));
            return tests;
        }
    }
}
