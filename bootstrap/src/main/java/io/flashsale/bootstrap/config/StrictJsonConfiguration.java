package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.IsoInstantDeserializer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MutableCoercionConfig;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

import java.time.Instant;

/**
 * Request bodies are read literally: no unknown or repeated fields, no "10" for 10, no 1.5 for 1,
 * no 7 for "7", no epoch number for an instant. Anything Jackson would otherwise guess at becomes a 400 instead.
 */
@Configuration(proxyBeanMethods = false)
public class StrictJsonConfiguration {

    @Bean
    JsonMapperBuilderCustomizer strictJson() {
        return StrictJsonConfiguration::strict;
    }

    public static void strict(JsonMapper.Builder builder) {
        builder.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                        DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                        DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .withCoercionConfig(LogicalType.Integer, config -> refuse(config, CoercionInputShape.String,
                        CoercionInputShape.Float, CoercionInputShape.Boolean, CoercionInputShape.EmptyString))
                .withCoercionConfig(LogicalType.Textual, config -> refuse(config, CoercionInputShape.Integer,
                        CoercionInputShape.Float, CoercionInputShape.Boolean))
                .addModule(new SimpleModule("iso-instants").addDeserializer(Instant.class, new IsoInstantDeserializer()));
    }

    private static void refuse(MutableCoercionConfig config, CoercionInputShape... shapes) {
        for (CoercionInputShape shape : shapes) {
            config.setCoercion(shape, CoercionAction.Fail);
        }
    }
}
