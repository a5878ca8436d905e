package io.flashsale.adapter.kafka;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The smallest Boot application around the pipeline: Boot's Kafka auto-configuration plus the adapter's beans. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(KafkaPipelineConfiguration.class)
class PipelineTestApplication {

    @Bean
    ScriptedPlaceOrder scriptedPlaceOrder() {
        return new ScriptedPlaceOrder();
    }

    @Bean
    ScriptedDatabaseProbe scriptedDatabaseProbe() {
        return new ScriptedDatabaseProbe();
    }

    @Bean
    RecordingOrderPipelineMetrics recordingOrderPipelineMetrics() {
        return new RecordingOrderPipelineMetrics();
    }

    @Bean
    RecordingRetryListener recordingRetryListener() {
        return new RecordingRetryListener();
    }
}
