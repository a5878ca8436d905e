package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The optional structured console format (Spring Boot's {@code logging.structured.format.console}): each line is one
 * JSON object, and a line logged while a request is handled carries the request's ids from the MDC.
 */
@ExtendWith(OutputCaptureExtension.class)
// The buyer named by a gateway's header reaches the log before any handler runs: trusted-header, set here on purpose.
@TestPropertySource(properties = {"logging.structured.format.console=ecs",
        "flashsale.security.buyer-auth=trusted-header"})
class StructuredLogIT extends ApiTestBase {

    @Test
    void givenJsonLogs_whenARequestFailsInside_thenItsErrorLineIsJsonWithTheRequestAndTheBuyer(CapturedOutput output) {
        Reply failed = get("/api/v1/test-only/failure", "X-User-Id", "alice", "X-Request-Id", "it-structured-1");

        assertThat(failed.status()).isEqualTo(500);
        assertThat(failed.header("X-Request-Id")).isEqualTo("it-structured-1");
        String line = output.getOut().lines().filter(text -> text.contains("it-structured-1")).findFirst().orElseThrow();
        assertThat(line).startsWith("{").endsWith("}")
                .contains("\"requestId\":\"it-structured-1\"")
                .contains("\"buyerId\":\"alice\"");
    }
}
