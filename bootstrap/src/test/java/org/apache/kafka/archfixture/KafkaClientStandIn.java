package org.apache.kafka.archfixture;

/** Stands in for a Kafka client class, so a rule can be shown to catch a dependency on Kafka. */
public class KafkaClientStandIn {
}
