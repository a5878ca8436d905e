package io.flashsale.adapter.web;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemErrorReportValveTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void givenAMalformedRequest_whenReported_thenAValidationProblemWithAnError() {
        JsonNode problem = json.readTree(ProblemErrorReportValve.problemJson(400, "Bad Request"));

        assertThat(problem.path("status").asInt()).isEqualTo(400);
        assertThat(problem.path("title").asString()).isEqualTo("Bad Request");
        assertThat(problem.path("code").asString()).isEqualTo("VALIDATION");
        assertThat(problem.path("errors").get(0).path("field").asString()).isEqualTo("request");
    }

    @Test
    void givenAServerError_whenReported_thenAnInternalProblemWithoutErrors() {
        JsonNode problem = json.readTree(ProblemErrorReportValve.problemJson(500, "Internal Server Error"));

        assertThat(problem.path("code").asString()).isEqualTo("INTERNAL");
        assertThat(problem.has("errors")).isFalse();
    }
}
