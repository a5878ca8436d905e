package io.flashsale.adapter.kafka;

import org.apache.kafka.clients.producer.ProducerConfig;

import java.util.Map;

/**
 * Refuses a producer that could lose or reorder an acknowledged reservation. Both settings must be explicit:
 * a producer left on the client's defaults silently drops idempotence when another setting conflicts with it.
 */
final class ProducerGuarantees {

    private ProducerGuarantees() {
    }

    static void require(Map<String, Object> producerConfig) {
        String acks = String.valueOf(producerConfig.get(ProducerConfig.ACKS_CONFIG));
        if (!acks.equals("all") && !acks.equals("-1")) {
            throw new IllegalStateException("the reservation producer needs acks=all (spring.kafka.producer.acks=all), "
                    + "found acks=" + acks);
        }
        String idempotence = String.valueOf(producerConfig.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        if (!idempotence.equals("true")) {
            throw new IllegalStateException("the reservation producer needs enable.idempotence=true "
                    + "(spring.kafka.producer.properties[enable.idempotence]=true), found " + idempotence);
        }
    }
}
