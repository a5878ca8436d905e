package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.CreateActivityRequest;
import io.flashsale.adapter.web.ReserveRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StrictJsonConfigurationTest {

    private final JsonMapper json = strictMapper();

    private static JsonMapper strictMapper() {
        JsonMapper.Builder builder = JsonMapper.builder();
        StrictJsonConfiguration.strict(builder);
        return builder.build();
    }

    @Test
    void givenAWellFormedReservation_whenRead_thenEveryFieldArrives() {
        ReserveRequest request = json.readValue(
                "{\"requestId\":\"r-1\",\"items\":[{\"skuId\":\"sku-1\",\"quantity\":2}]}", ReserveRequest.class);

        assertThat(request.requestId()).isEqualTo("r-1");
        assertThat(request.items()).singleElement().satisfies(line -> {
            assertThat(line.skuId()).isEqualTo("sku-1");
            assertThat(line.quantity()).isEqualTo(2);
        });
    }

    @Test
    void givenAnythingJacksonWouldGuessAt_whenRead_thenRefused() {
        String[] bodies = {
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":1}],\"extra\":true}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":1,\"price\":5}]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":\"1\"}]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":1.5}]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":1.0}]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":true}]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":\"\"}]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":99999999999}]}",
                "{\"items\":[{\"skuId\":7,\"quantity\":1}]}",
                "{\"items\":[{\"skuId\":false,\"quantity\":1}]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":1}],\"items\":[]}",
                "{\"items\":[{\"skuId\":\"a\",\"quantity\":1}]} {}",
                "{\"items\":{\"skuId\":\"a\",\"quantity\":1}}",
        };
        for (String body : bodies) {
            assertThatThrownBy(() -> json.readValue(body, ReserveRequest.class))
                    .as(body)
                    .isInstanceOf(JacksonException.class);
        }
    }

    @Test
    void givenAnInstantAsANumber_whenRead_thenRefused() {
        String body = "{\"name\":\"n\",\"startsAt\":1700000000,\"endsAt\":\"2030-01-01T00:00:00Z\",\"items\":[]}";

        assertThatThrownBy(() -> json.readValue(body, CreateActivityRequest.class)).isInstanceOf(JacksonException.class);
    }

    @Test
    void givenAnInstantThatIsNotIso8601_whenRead_thenRefused() {
        for (String startsAt : new String[] {"\"\"", "\"tomorrow\"", "\"2030-01-01\"", "\"2030-01-01 00:00:00\"", "true"}) {
            String body = "{\"name\":\"n\",\"startsAt\":" + startsAt + ",\"endsAt\":\"2030-01-02T00:00:00Z\",\"items\":[]}";

            assertThatThrownBy(() -> json.readValue(body, CreateActivityRequest.class))
                    .as(startsAt)
                    .isInstanceOf(JacksonException.class);
        }
    }

    @Test
    void givenAnIsoInstant_whenRead_thenItIsParsed() {
        String body = "{\"name\":\"n\",\"startsAt\":\"2030-01-01T00:00:00Z\",\"endsAt\":\"2030-01-02T00:00:00Z\",\"items\":[]}";

        assertThat(json.readValue(body, CreateActivityRequest.class).startsAt())
                .isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    }

    @Test
    void givenAWrongTypeDeepInTheBody_whenRefused_thenTheErrorNamesItsJsonPath() {
        assertThatThrownBy(() -> json.readValue("{\"items\":[{\"skuId\":\"a\",\"quantity\":1},{\"skuId\":\"b\",\"quantity\":\"x\"}]}",
                ReserveRequest.class))
                .isInstanceOfSatisfying(JacksonException.class, e -> assertThat(e.getPath())
                        .extracting(reference -> reference.getPropertyName() != null
                                ? reference.getPropertyName() : String.valueOf(reference.getIndex()))
                        .containsExactly("items", "1", "quantity"));
    }
}
