package io.flashsale.adapter.redis;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class RedisHotStoreSettingsTest {

    @Test
    void givenNoPassword_thenTheUriAuthenticatesWithNone() {
        RedisURI uri = new RedisHotStore.Settings("127.0.0.1", 6379, "", 0, Duration.ofSeconds(2)).toUri();

        assertThat(uri.getHost()).isEqualTo("127.0.0.1");
        assertThat(uri.getPort()).isEqualTo(6379);
        assertThat(uri.getDatabase()).isZero();
        assertThat(uri.getCredentialsProvider().resolveCredentials().block().hasPassword()).isFalse();
    }

    @Test
    void givenEverySetting_thenTheUriCarriesThem() {
        RedisURI uri = new RedisHotStore.Settings("redis.internal", 6380, "s3cret", 2, Duration.ofMillis(750)).toUri();

        assertThat(uri.getHost()).isEqualTo("redis.internal");
        assertThat(uri.getPort()).isEqualTo(6380);
        assertThat(uri.getDatabase()).isEqualTo(2);
        assertThat(uri.getTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(new String(uri.getCredentialsProvider().resolveCredentials().block().getPassword())).isEqualTo("s3cret");
    }

    @Test
    void givenClusterNodes_thenEachSeedIsAUriWithTheTimeoutAndPassword() {
        var settings = new RedisHotStore.Settings("ignored", 1, "s3cret", 0, Duration.ofMillis(750),
                java.util.List.of("10.0.0.1:7000", "redis-b:7001"));

        assertThat(settings.cluster()).isTrue();
        assertThat(settings.clusterUris()).extracting(RedisURI::getHost, RedisURI::getPort, RedisURI::getTimeout)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("10.0.0.1", 7000, Duration.ofMillis(750)),
                        org.assertj.core.groups.Tuple.tuple("redis-b", 7001, Duration.ofMillis(750)));
        assertThat(new String(settings.clusterUris().getFirst().getCredentialsProvider().resolveCredentials().block()
                .getPassword())).isEqualTo("s3cret");
    }

    @Test
    void givenAClusterNodeWithoutPort_thenRefused() {
        var settings = new RedisHotStore.Settings("h", 1, null, 0, Duration.ofSeconds(1), java.util.List.of("redis-a"));

        org.assertj.core.api.Assertions.assertThatThrownBy(settings::clusterUris)
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenNoClusterNodes_thenStandalone() {
        assertThat(new RedisHotStore.Settings("h", 1, null, 0, Duration.ofSeconds(1)).cluster()).isFalse();
    }
}
