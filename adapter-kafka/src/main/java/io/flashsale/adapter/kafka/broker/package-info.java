/** A real Kafka broker inside the service's JVM, for running without configured brokers. */
package io.flashsale.adapter.kafka.broker;
