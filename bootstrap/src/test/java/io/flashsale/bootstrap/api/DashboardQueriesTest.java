package io.flashsale.bootstrap.api;

import io.flashsale.bootstrap.api.PrometheusScrapeIT.DashboardQueries;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The name extraction the dashboard check relies on: it must find every metric, and nothing that is not one. */
class DashboardQueriesTest {

    @Test
    void findsTheMetricsOfAQuantileOverALabelledHistogram() {
        assertThat(DashboardQueries.metricsIn("histogram_quantile(0.99, sum by (le) (rate("
                + "http_server_requests_seconds_bucket{uri=\"/api/v1/activities/{activityId}/reservations\","
                + "method=\"POST\"}[1m])))"))
                .containsExactly("http_server_requests_seconds_bucket");
    }

    @Test
    void findsEveryMetricOfAnExpressionThatCombinesSeveral() {
        assertThat(DashboardQueries.metricsIn("sum(rate(flashsale_orders_total{outcome=\"placed\"}[5m])) / "
                + "clamp_min(sum(rate(flashsale_relay_relayed_total[5m])), 1) or vector(0)"))
                .containsExactly("flashsale_orders_total", "flashsale_relay_relayed_total");
    }

    @Test
    void findsABareMetric() {
        assertThat(DashboardQueries.metricsIn("max by (activity, sku) (flashsale_reconciliation_drift_units)"))
                .containsExactly("flashsale_reconciliation_drift_units");
    }

    @Test
    void readsTheNamesOfAScrapeWithoutItsComments() {
        String scrape = """
                # HELP flashsale_orders_total reservations that became an order
                # TYPE flashsale_orders_total counter
                flashsale_orders_total{outcome="placed"} 3.0
                process_uptime_seconds 12.5
                """;
        assertThat(DashboardQueries.scrapedNames(scrape)).containsExactly("flashsale_orders_total", "process_uptime_seconds");
    }
}
