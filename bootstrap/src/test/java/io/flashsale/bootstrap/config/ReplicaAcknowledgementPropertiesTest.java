package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.ReplicaAcknowledgement;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicaAcknowledgementPropertiesTest {

    @Test
    void givenNoSettings_whenBound_thenNoWait() {
        ReplicaAcknowledgement acknowledgement = bind(Map.of()).toAcknowledgement();

        assertThat(acknowledgement.waits()).isFalse();
        assertThat(acknowledgement.timeout()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void givenOneReplicaAndATimeout_whenBound_thenTheWaitCarriesThem() {
        ReplicaAcknowledgement acknowledgement = bind(Map.of("flashsale.redis.acknowledge-replicas", "1",
                "flashsale.redis.acknowledge-timeout", "250ms")).toAcknowledgement();

        assertThat(acknowledgement).isEqualTo(new ReplicaAcknowledgement(1, Duration.ofMillis(250)));
    }

    @Test
    void givenANegativeCountOrNoTimeout_whenBound_thenRefused() {
        assertThatThrownBy(() -> bind(Map.of("flashsale.redis.acknowledge-replicas", "-1")))
                .isInstanceOf(BindException.class).hasRootCauseMessage(
                        "flashsale.redis.acknowledge-replicas cannot be negative");
        assertThatThrownBy(() -> bind(Map.of("flashsale.redis.acknowledge-timeout", "0s")))
                .isInstanceOf(BindException.class);
    }

    private static ReplicaAcknowledgementProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("flashsale.redis", ReplicaAcknowledgementProperties.class);
    }
}
