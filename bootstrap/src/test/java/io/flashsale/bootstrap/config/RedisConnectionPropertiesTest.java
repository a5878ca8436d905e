package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.RedisHotStore;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RedisConnectionPropertiesTest {

    @Test
    void givenNoSettings_whenBound_thenTheLocalRedis() {
        RedisHotStore.Settings settings = bind(Map.of()).toSettings();

        assertThat(settings.host()).isEqualTo("127.0.0.1");
        assertThat(settings.port()).isEqualTo(6379);
        assertThat(settings.database()).isZero();
        assertThat(settings.password()).isNullOrEmpty();
    }

    @Test
    void givenSpringsStandardRedisProperties_whenBound_thenTheSettingsCarryThem() {
        RedisConnectionProperties properties = bind(Map.of(
                "spring.data.redis.host", "redis.internal",
                "spring.data.redis.port", "6380",
                "spring.data.redis.password", "s3cret",
                "spring.data.redis.database", "2",
                "spring.data.redis.timeout", "750ms"));

        RedisHotStore.Settings settings = properties.toSettings();

        assertThat(settings.host()).isEqualTo("redis.internal");
        assertThat(settings.port()).isEqualTo(6380);
        assertThat(settings.database()).isEqualTo(2);
        assertThat(settings.timeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(settings.password()).isEqualTo("s3cret");
        assertThat(properties.toString()).doesNotContain("s3cret");
    }

    private static RedisConnectionProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("spring.data.redis", RedisConnectionProperties.class);
    }
}
