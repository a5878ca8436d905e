package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.ReplicaAcknowledgement;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * WAIT-based acknowledgement of reservations (ADR 0097): a buyer is answered only once {@code WAIT} saw the reserve
 * call's writes on this many replicas of the master that decided it, or its timeout passed. A WAIT that returns short
 * refuses nothing (the reservation stands in the master and its outbox; counted in
 * {@code flashsale.redis.replica.acknowledgements{result=short}}).
 *
 * @param acknowledgeReplicas {@code flashsale.redis.acknowledge-replicas}: 0 (the default) answers once the master
 *                            decided, replication stays asynchronous; 1 keeps an answered reservation through the loss
 *                            of its master when its replica takes over
 * @param acknowledgeTimeout  {@code flashsale.redis.acknowledge-timeout}: how long one WAIT may hold a batch's answers
 *                            (100 ms); shorter than {@code spring.data.redis.timeout}
 */
@ConfigurationProperties("flashsale.redis")
public record ReplicaAcknowledgementProperties(@DefaultValue("0") int acknowledgeReplicas,
                                               @DefaultValue("100ms") Duration acknowledgeTimeout) {

    public ReplicaAcknowledgementProperties {
        if (acknowledgeReplicas < 0) {
            throw new IllegalArgumentException("flashsale.redis.acknowledge-replicas cannot be negative");
        }
        PositiveDurations.require("flashsale.redis.acknowledge-timeout", acknowledgeTimeout);
    }

    ReplicaAcknowledgement toAcknowledgement() {
        return new ReplicaAcknowledgement(acknowledgeReplicas, acknowledgeTimeout);
    }
}
