/** Kafka adapter: carries accepted reservations from the outbox relay to the order consumer. */
package io.flashsale.adapter.kafka;
