package io.flashsale.load;

import java.util.List;

import static io.flashsale.load.PipelineFigures.format;

/** What the service counted itself, from its scrape: where the pipeline's time went. */
final class HarnessReport {

    private HarnessReport() {
    }

    static List<String> pipelineCounters(ServiceScrape scrape) {
        double batches = scrape.sum("flashsale_orders_batch_size_count");
        double deliveries = scrape.sum("flashsale_orders_batch_size_sum");
        return List.of(
                "--- the service's own counters (its /actuator/prometheus) ---",
                format("consumer batches: %.0f, deliveries %.0f, mean batch %.1f, largest %.0f", batches, deliveries,
                        batches == 0 ? 0 : deliveries / batches, scrape.max("flashsale_orders_batch_size_max")),
                format("orders placed %.0f, refused %.0f, duplicates %.0f; outbox entries relayed %.0f",
                        scrape.sum("flashsale_orders_total{outcome=\"placed\"}"),
                        scrape.sum("flashsale_orders_total{outcome=\"refused\"}"),
                        scrape.sum("flashsale_orders_total{outcome=\"duplicate\"}"),
                        scrape.sum("flashsale_relay_relayed_total")),
                format("Kafka consumer (mean over its fetches): records per fetch %.1f, fetch latency %.1f ms,"
                                + " fetch size %.0f bytes; lag now max %.0f records",
                        scrape.max("kafka_consumer_fetch_manager_records_per_request_avg"),
                        scrape.max("kafka_consumer_fetch_manager_fetch_latency_avg"),
                        scrape.max("kafka_consumer_fetch_manager_fetch_size_avg"),
                        scrape.max("kafka_consumer_fetch_manager_records_lag_max")),
                format("Hikari: max pending threads now %.0f, connection acquire total %.3f s over %.0f acquisitions",
                        scrape.max("hikaricp_connections_pending"),
                        scrape.sum("hikaricp_connections_acquire_seconds_sum"),
                        scrape.sum("hikaricp_connections_acquire_seconds_count")));
    }
}
