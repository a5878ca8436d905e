package io.flashsale.bootstrap.archfixture;

import org.apache.kafka.archfixture.KafkaClientStandIn;

/** Breaks the rules on purpose: Kafka outside the Kafka adapter. */
public class BootstrapUsingKafka {

    public KafkaClientStandIn client;
}
