package io.flashsale.bootstrap.embedded;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import io.flashsale.adapter.web.security.BuyerTokenDecoders;
import io.flashsale.adapter.web.security.demo.DemoTokenIssuer;
import io.flashsale.domain.reservation.BuyerId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The choices that need no server: anything listening stands in for one, a closed port for none. */
class DemoModeLauncherTest {

    private ServerSocket listening;
    private int silentPort;

    @BeforeEach
    void ports() throws IOException {
        listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            silentPort = closed.getLocalPort();
        }
    }

    @AfterEach
    void close() throws IOException {
        listening.close();
    }

    @Test
    void givenAConfiguredRedisThatDoesNotAnswer_whenTheContextStarts_thenItStartsWithoutItAndStartsNothing() {
        var environment = probesAt(listening.getLocalPort())
                .withProperty("spring.data.redis.host", "127.0.0.1")
                .withProperty("spring.data.redis.port", Integer.toString(silentPort))
                .withProperty("spring.datasource.url", "jdbc:mysql://127.0.0.1:" + listening.getLocalPort() + "/shop");
        var launcher = new DemoModeLauncher(environment);

        launcher.postProcessBeanFactory(new DefaultListableBeanFactory());

        // ADR 39: the service runs on the database until that Redis answers; it is never replaced by an embedded one.
        assertThat(launcher.redis()).isNull();
        assertThat(environment.getProperty("spring.data.redis.port")).isEqualTo(Integer.toString(silentPort));
        launcher.destroy();
    }

    @Test
    void givenAConfiguredDatabaseThatDoesNotAnswer_whenTheContextStarts_thenItRefusesToStart() {
        var environment = probesAt(listening.getLocalPort())
                .withProperty("spring.data.redis.port", Integer.toString(listening.getLocalPort()))
                .withProperty("spring.datasource.url", "jdbc:mysql://127.0.0.1:" + silentPort + "/shop?useSSL=false");
        var launcher = new DemoModeLauncher(environment);

        assertThatThrownBy(() -> launcher.postProcessBeanFactory(new DefaultListableBeanFactory()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("database is configured at 127.0.0.1:" + silentPort)
                .hasMessageContaining("spring.datasource.url");
        assertThat(launcher.mariadb()).isNull();
    }

    @Test
    void givenNothingConfiguredAndNothingSaidOfDemoMode_whenTheContextStarts_thenItRefusesToStartNamingTheProperty() {
        int port = listening.getLocalPort();
        var environment = probesAt(port); // a server answers on the probe: outside demo mode it is not even asked
        var launcher = new DemoModeLauncher(environment);
        var beans = new DefaultListableBeanFactory();

        assertThatThrownBy(() -> launcher.postProcessBeanFactory(beans))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No Redis configured: set spring.data.redis.host / spring.data.redis.port")
                .hasMessageContaining("flashsale.embedded.enabled=true");
        assertThat(launcher.redis()).isNull();
        assertThat(beans.getBeanProvider(DemoTokenIssuer.class).getIfAvailable()).as("no demo mode, no demo issuer")
                .isNull();
    }

    @Test
    void givenARedisButNoDatabaseConfiguredOutsideDemoMode_whenTheContextStarts_thenItRefusesToStartNamingTheUrl() {
        var environment = probesAt(listening.getLocalPort())
                .withProperty("spring.data.redis.port", Integer.toString(listening.getLocalPort()));
        var launcher = new DemoModeLauncher(environment);

        assertThatThrownBy(() -> launcher.postProcessBeanFactory(new DefaultListableBeanFactory()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No database configured: set spring.datasource.url");
        assertThat(launcher.mariadb()).isNull();
    }

    @Test
    void givenDemoModeAndServersAnsweringOnTheProbes_whenTheContextStarts_thenThoseAreUsedAndOnlyTheIssuerIsAdded() {
        int port = listening.getLocalPort();
        var environment = probesAt(port).withProperty("flashsale.embedded.enabled", "true");
        var launcher = new DemoModeLauncher(environment);
        var beans = new DefaultListableBeanFactory();

        launcher.postProcessBeanFactory(beans);

        assertThat(launcher.redis()).isNull();
        assertThat(launcher.mariadb()).isNull();
        assertThat(beans.getBeanProvider(DemoTokenIssuer.class).getIfAvailable())
                .as("demo mode on local servers: the buyer page still signs in").isNotNull();
        assertThat(environment.getProperty("spring.data.redis.host")).isEqualTo("127.0.0.1");
        assertThat(environment.getProperty("spring.data.redis.port", Integer.class)).isEqualTo(port);
        assertThat(environment.getProperty("spring.datasource.url"))
                .startsWith("jdbc:mysql://127.0.0.1:" + port + "/flashsale?createDatabaseIfNotExist=true");
    }

    @Test
    void givenAConfiguredRedisCluster_whenTheContextStarts_thenNoRedisIsProbedStartedOrSet() {
        int port = listening.getLocalPort();
        var environment = probesAt(silentPort)
                .withProperty("spring.data.redis.cluster.nodes", "127.0.0.1:7000,127.0.0.1:7001")
                .withProperty("spring.datasource.url", "jdbc:mysql://127.0.0.1:" + port + "/shop");
        var launcher = new DemoModeLauncher(environment);

        launcher.postProcessBeanFactory(new DefaultListableBeanFactory());

        assertThat(launcher.redis()).isNull();
        assertThat(environment.getProperty("spring.data.redis.host")).isNull();
    }

    @Test
    void givenConfiguredServersThatAnswer_whenTheContextStarts_thenTheirAddressesAreKept() {
        int port = listening.getLocalPort();
        String url = "jdbc:mysql://localhost:" + port + "/shop";
        var environment = probesAt(silentPort)
                .withProperty("spring.data.redis.host", "localhost")
                .withProperty("spring.data.redis.port", Integer.toString(port))
                .withProperty("spring.datasource.url", url);
        var launcher = new DemoModeLauncher(environment);

        launcher.postProcessBeanFactory(new DefaultListableBeanFactory());

        assertThat(environment.getPropertySources().contains(DemoModeLauncher.PROPERTY_SOURCE_NAME)).isFalse();
        assertThat(environment.getProperty("spring.data.redis.host")).isEqualTo("localhost");
        assertThat(environment.getProperty("spring.datasource.url")).isEqualTo(url);
    }

    @Test
    void givenADatabaseUrlWithSeveralHosts_whenTheContextStarts_thenItIsKeptUnprobed() {
        int port = listening.getLocalPort();
        String url = "jdbc:mysql://db-1:3306,db-2:3306/shop";
        var environment = probesAt(silentPort)
                .withProperty("spring.data.redis.port", Integer.toString(port))
                .withProperty("spring.datasource.url", url);
        var launcher = new DemoModeLauncher(environment);

        launcher.postProcessBeanFactory(new DefaultListableBeanFactory());

        assertThat(environment.getProperty("spring.datasource.url")).isEqualTo(url);
        assertThat(launcher.mariadb()).isNull();
    }

    @Test
    void givenNothingConfiguredForRedisAndNothingAnswering_whenTheContextStarts_thenDemoModeHasItsBuyerTokenIssuer(
            @TempDir Path data) {
        var environment = probesAt(silentPort)
                .withProperty("spring.datasource.url", "jdbc:mysql://127.0.0.1:" + listening.getLocalPort() + "/flashsale")
                .withProperty("flashsale.embedded.enabled", "true")
                .withProperty("flashsale.embedded.redis.data-dir", data.resolve("redis").toString());
        var launcher = new DemoModeLauncher(environment);
        var beans = new DefaultListableBeanFactory();
        try {
            launcher.postProcessBeanFactory(beans);

            assertThat(launcher.redis()).as("demo mode").isNotNull();
            DemoTokenIssuer issuer = beans.getBean(DemoTokenIssuer.class);
            String token = issuer.issue(new BuyerId("alice")).token();
            assertThat(BuyerTokenDecoders.fromPublicKey(issuer.publicKey(), Set.of(SignatureAlgorithm.ES256))
                    .decode(token).getSubject()).isEqualTo("alice");
        } finally {
            launcher.destroy();
        }
    }

    private static MockEnvironment probesAt(int port) {
        return new MockEnvironment()
                .withProperty("flashsale.embedded.probe-timeout", "300ms")
                .withProperty("flashsale.embedded.redis.probe", "127.0.0.1:" + port)
                .withProperty("flashsale.embedded.mariadb.probe", "127.0.0.1:" + port);
    }
}
