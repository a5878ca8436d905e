package io.flashsale.bootstrap.config;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RedisConnectionPropertiesTest {

    @Test
    void givenNoSettings_whenBound_thenTheLocalRedis() {
        RedisURI uri = bind(Map.of()).toUri();

        assertThat(uri.getHost()).isEqualTo("127.0.0.1");
        assertThat(uri.getPort()).isEqualTo(6379);
        assertThat(uri.getDatabase()).isZero();
        assertThat(uri.getCredentialsProvider().resolveCredentials().block().hasPassword()).isFalse();
    }

    @Test
    void givenSpringsStandardRedisProperties_whenBound_thenTheUriCarriesThem() {
        RedisConnectionProperties properties = bind(Map.of(
                "spring.data.redis.host", "redis.internal",
                "spring.data.redis.port", "6380",
                "spring.data.redis.password", "s3cret",
                "spring.data.redis.database", "2",
                "spring.data.redis.timeout", "750ms"));

        RedisURI uri = properties.toUri();

        assertThat(uri.getHost()).isEqualTo("redis.internal");
        assertThat(uri.getPort()).isEqualTo(6380);
        assertThat(uri.getDatabase()).isEqualTo(2);
        assertThat(uri.getTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(new String(uri.getCredentialsProvider().resolveCredentials().block().getPassword())).isEqualTo("s3cret");
        assertThat(properties.toString()).doesNotContain("s3cret");
    }

    private static RedisConnectionProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("spring.data.redis", RedisConnectionProperties.class);
    }
}
