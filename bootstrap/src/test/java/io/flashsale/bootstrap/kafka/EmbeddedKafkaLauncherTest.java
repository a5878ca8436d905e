package io.flashsale.bootstrap.kafka;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedKafkaLauncherTest {

    @Test
    void givenConfiguredBrokers_whenTheContextStarts_thenNoBrokerIsStartedAndTheAddressIsKept() {
        var environment = new MockEnvironment().withProperty("spring.kafka.bootstrap-servers", "kafka-1:9092,kafka-2:9092");
        var launcher = new EmbeddedKafkaLauncher(environment);

        launcher.postProcessBeanFactory(new DefaultListableBeanFactory());

        assertThat(launcher.broker()).isNull();
        assertThat(environment.getProperty("spring.kafka.bootstrap-servers")).isEqualTo("kafka-1:9092,kafka-2:9092");
    }

    @Test
    void givenNoBrokersAndTheEmbeddedBrokerForbidden_whenTheContextStarts_thenItRefusesToStartNamingBothSettings() {
        var environment = new MockEnvironment().withProperty("flashsale.kafka.embedded.enabled", "false")
                .withProperty("flashsale.embedded.enabled", "true");
        var launcher = new EmbeddedKafkaLauncher(environment);

        assertThatThrownBy(() -> launcher.postProcessBeanFactory(new DefaultListableBeanFactory()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spring.kafka.bootstrap-servers")
                .hasMessageContaining("flashsale.kafka.embedded.enabled=false");
        assertThat(launcher.broker()).isNull();
    }

    @Test
    void givenBlankBrokers_whenTheContextStarts_thenTheyCountAsNoneConfigured() {
        var environment = new MockEnvironment().withProperty("spring.kafka.bootstrap-servers", " ")
                .withProperty("flashsale.kafka.embedded.enabled", "false");
        var launcher = new EmbeddedKafkaLauncher(environment);

        assertThatThrownBy(() -> launcher.postProcessBeanFactory(new DefaultListableBeanFactory()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void givenNoBrokersAndDemoModeOff_whenTheContextStarts_thenItRefusesToStartNamingTheSettingAndDemoMode() {
        var environment = new MockEnvironment().withProperty("flashsale.embedded.enabled", "false");
        var launcher = new EmbeddedKafkaLauncher(environment);

        assertThatThrownBy(() -> launcher.postProcessBeanFactory(new DefaultListableBeanFactory()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("set spring.kafka.bootstrap-servers")
                .hasMessageContaining("flashsale.embedded.enabled=true");
        assertThat(launcher.broker()).isNull();
    }

    @Test
    void givenNoBrokersAndNothingSaid_whenTheContextStarts_thenDemoModeIsOffAndItRefusesToStart() {
        var launcher = new EmbeddedKafkaLauncher(new MockEnvironment());

        assertThatThrownBy(() -> launcher.postProcessBeanFactory(new DefaultListableBeanFactory()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("set spring.kafka.bootstrap-servers");
        assertThat(launcher.broker()).isNull();
    }
}
