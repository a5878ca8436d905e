package io.flashsale.bootstrap.api;

import io.flashsale.bootstrap.alerts.AlertRuleFile;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator's Prometheus and Grafana see: the scrape has the service's metrics (latency as histogram buckets),
 * every metric the committed Grafana dashboard and alert rules (docs/ops/alerts.yml) query is in it, and readiness covers the hot store (Redis, or the database during an outage), the database and Kafka.
 */
class PrometheusScrapeIT extends ApiTestBase {

    static final Path DASHBOARD = Path.of(System.getProperty("basedir", "."))
            .resolve("../docs/ops/grafana-dashboard.json").normalize();

    @Test
    void givenASaleWithReservationsAndAReconciliation_whenScraped_thenEveryMetricTheDashboardAndAlertsQueryIsThere()
            throws IOException {
        String id = openSale(1, item("sku-a", 5));
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 1))).status()).isEqualTo(202);
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 1))).status()).isEqualTo(409);
        assertThat(asAdmin("POST", "/api/v1/activities/" + id + "/reconciliation", null).status()).isEqualTo(200);

        Reply scrape = operator("/actuator/prometheus");

        assertThat(scrape.status()).as(scrape.body()).isEqualTo(200);
        Set<String> scraped = DashboardQueries.scrapedNames(scrape.body());
        Set<String> queried = DashboardQueries.metricNames(JsonMapper.builder().build().readTree(Files.readString(DASHBOARD)));
        assertThat(queried).as("metrics the dashboard queries").isNotEmpty();
        assertThat(scraped).as("metrics in the scrape").containsAll(queried);
        Set<String> alerted = new TreeSet<>();
        AlertRuleFile.rules().forEach(rule -> alerted.addAll(DashboardQueries.metricsIn((String) rule.get("expr"))));
        assertThat(alerted).as("metrics the alert rules query").contains("flashsale_outbox_oldest_age_seconds");
        assertThat(scraped).as("metrics in the scrape").containsAll(alerted);
    }

    @Test
    void givenReservations_whenScraped_thenReserveAndOrderLatencyComeAsHistogramBuckets() {
        String id = openSale(1, item("sku-a", 5));
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 1))).status()).isEqualTo(202);

        String scrape = operator("/actuator/prometheus").body();

        assertThat(scrape.lines().filter(line -> line.startsWith("flashsale_reservations_seconds_bucket{")
                && line.contains("outcome=\"Reserved\"")).count())
                .as("reserve latency buckets").isGreaterThan(5);
        assertThat(scrape.lines().filter(line -> line.startsWith("flashsale_orders_reservation_to_order_seconds_bucket{")).count())
                .as("order latency buckets").isGreaterThan(5);
        assertThat(sample(scrape, "flashsale_redis_reserve_attempts_total")).as("the attempt went in a reserve call")
                .isGreaterThanOrEqualTo(1.0)
                .isGreaterThanOrEqualTo(sample(scrape, "flashsale_redis_reserve_calls_total"));
        assertThat(sample(scrape, "flashsale_redis_reserve_calls_total")).isGreaterThanOrEqualTo(1.0);
    }

    /** The value of a meter with no tags in a scrape. */
    private static double sample(String scrape, String name) {
        return scrape.lines().filter(line -> line.startsWith(name + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(name.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError(name + " is not in the scrape"));
    }

    @Test
    void whenReadinessIsAsked_thenItIsUpWithTheHotStoreTheDatabaseAndKafka() {
        Reply readiness = operator("/actuator/health/readiness");

        assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
        JsonNode components = readiness.json().path("components");
        for (String component : new String[] {"db", "hotStore", "kafka"}) {
            assertThat(components.path(component).path("status").asString()).as(component).isEqualTo("UP");
        }
        assertThat(components.path("hotStore").path("details").path("decidedBy").asString()).isEqualTo("redis");
    }

    /** Metric names in a Prometheus scrape and in a Grafana dashboard's PromQL. */
    static final class DashboardQueries {

        private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");
        private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
        private static final Set<String> PROMQL_WORDS = Set.of("sum", "max", "min", "avg", "count", "rate", "irate",
                "increase", "histogram_quantile", "abs", "topk", "bottomk", "by", "without", "on", "ignoring",
                "group_left", "group_right", "and", "or", "unless", "offset", "bool", "clamp_min", "clamp_max",
                "sort_desc", "time", "vector", "scalar", "label_replace", "delta", "deriv", "max_over_time",
                "min_over_time", "avg_over_time", "e", "inf", "nan");

        private DashboardQueries() {
        }

        static Set<String> scrapedNames(String scrape) {
            Set<String> names = new TreeSet<>();
            scrape.lines().filter(line -> !line.startsWith("#")).forEach(line -> {
                Matcher matcher = SAMPLE.matcher(line);
                if (matcher.find()) {
                    names.add(matcher.group(1));
                }
            });
            return names;
        }

        static Set<String> metricNames(JsonNode dashboard) {
            Set<String> names = new TreeSet<>();
            dashboard.path("panels").forEach(panel -> panel.path("targets").forEach(target ->
                    names.addAll(metricsIn(target.path("expr").asString("")))));
            return names;
        }

        /** Identifiers left once strings, label matchers, ranges, grouping clauses and functions are taken out. */
        static Set<String> metricsIn(String expr) {
            String bare = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                    .replaceAll("\\{[^}]*}", " ")
                    .replaceAll("\\[[^]]*]", " ")
                    .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
            Set<String> names = new TreeSet<>();
            Matcher matcher = IDENTIFIER.matcher(bare);
            while (matcher.find()) {
                String word = matcher.group();
                boolean isFunction = bare.substring(matcher.end()).stripLeading().startsWith("(");
                boolean isNumberPart = matcher.start() > 0 && Character.isDigit(bare.charAt(matcher.start() - 1));
                if (!isFunction && !isNumberPart && !PROMQL_WORDS.contains(word)) {
                    names.add(word);
                }
            }
            return names;
        }
    }
}
