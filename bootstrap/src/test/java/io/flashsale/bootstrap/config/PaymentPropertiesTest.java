package io.flashsale.bootstrap.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaymentPropertiesTest {

    @Test
    void givenTheShippedConfiguration_thenBuyersCannotConfirmAndNoSecretIsSet() throws IOException {
        PaymentProperties payment = bound("application.yaml");

        assertThat(payment.buyerConfirms()).isFalse();
        assertThat(payment.hasNotificationSecret()).isFalse();
        assertThat(payment.signatureTolerance()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void givenTheDemoProfile_thenBuyersConfirmTheirOwnPayments() throws IOException {
        assertThat(bound("application.yaml", "application-demo.yaml").buyerConfirms()).isTrue();
    }

    @Test
    void givenASecret_thenItNeverShowsInTheProperties() {
        PaymentProperties payment = new PaymentProperties(false, "s3cr3t-value", Duration.ofMinutes(5));

        assertThat(payment.toString()).doesNotContain("s3cr3t-value").contains("****");
    }

    @Test
    void givenNoTolerance_thenRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new PaymentProperties(false, null, Duration.ZERO))
                .hasMessageContaining("flashsale.payment.signature-tolerance");
    }

    /** The files as Spring layers them: a later one (a profile's) over the earlier. */
    private static PaymentProperties bound(String... files) throws IOException {
        MutablePropertySources sources = new StandardEnvironment().getPropertySources();
        for (String file : files) {
            List<PropertySource<?>> loaded = new YamlPropertySourceLoader().load(file, new ClassPathResource(file));
            loaded.forEach(sources::addFirst);
        }
        return new Binder(ConfigurationPropertySources.from(sources),
                new PropertySourcesPlaceholdersResolver(sources))
                .bindOrCreate("flashsale.payment", PaymentProperties.class);
    }
}
