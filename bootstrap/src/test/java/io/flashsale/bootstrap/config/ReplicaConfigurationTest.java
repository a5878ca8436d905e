package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.replica.ReplicaSettings;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicaConfigurationTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(ReplicaConfiguration.class);

    @Test
    void givenNoReplicaUrl_thenThereAreNoReplicaSettingsAndEveryReadStaysOnThePrimary() {
        context.run(started -> assertThat(started).hasNotFailed().doesNotHaveBean(ReplicaSettings.class));
        context.withPropertyValues("flashsale.datasource.replica.url= ")
                .run(started -> assertThat(started).hasNotFailed().doesNotHaveBean(ReplicaSettings.class));
    }

    @Test
    void givenAReplicaUrl_thenItsSettingsCarryTheDefaultsAndWhatWasSet() {
        context.withPropertyValues("flashsale.datasource.replica.url=jdbc:mysql://replica:3306/flashsale",
                        "flashsale.datasource.replica.username=reader", "flashsale.datasource.replica.max-lag=3s")
                .run(started -> assertThat(started.getBean(ReplicaSettings.class)).isEqualTo(new ReplicaSettings(
                        "jdbc:mysql://replica:3306/flashsale", "reader", "", Duration.ofSeconds(3),
                        Duration.ofSeconds(1), Duration.ofMillis(250))));
    }

    @Test
    void givenANonPositiveLagBound_thenTheStartFailsNamingTheSetting() {
        context.withPropertyValues("flashsale.datasource.replica.url=jdbc:mysql://replica:3306/flashsale",
                        "flashsale.datasource.replica.max-lag=0s")
                .run(started -> assertThat(started).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("flashsale.datasource.replica.max-lag"));
    }
}
