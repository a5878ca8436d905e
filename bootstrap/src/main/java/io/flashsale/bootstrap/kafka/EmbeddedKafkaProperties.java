package io.flashsale.bootstrap.kafka;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The in-process broker that runs when no {@code spring.kafka.bootstrap-servers} is configured.
 *
 * @param enabled false forbids it: without configured brokers the service then refuses to start
 * @param dataDir its log, kept across restarts so that nothing the broker acknowledged is lost; relative paths
 *                are resolved against the working directory
 * @param port    its client port; 0 picks a free one at every start
 */
public record EmbeddedKafkaProperties(@DefaultValue("true") boolean enabled,
                                      @DefaultValue("./data/kafka") String dataDir,
                                      @DefaultValue("9092") int port) {

    public static final String PREFIX = "flashsale.kafka.embedded";
}
