package io.flashsale.adapter.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestBodyLimitFilterTest {

    private static final int LIMIT = 1024;

    private final JsonMapper json = JsonMapper.builder()
            .addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
            .build();
    private final RequestBodyLimitFilter filter = new RequestBodyLimitFilter(LIMIT, new CompleteProblemWriter(json));

    @Test
    void givenADeclaredLengthOverTheLimit_whenFiltered_thenRefusedWith413BeforeAnyHandlerRuns() throws Exception {
        var request = post(new byte[LIMIT + 1]);
        var response = new MockHttpServletResponse();
        var chain = new MockFilterChain();

        filter.doFilter(request, response, chain);

        assertThat(chain.getRequest()).isNull();
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        JsonNode problem = json.readTree(response.getContentAsString());
        assertThat(problem.path("code").asString()).isEqualTo("PAYLOAD_TOO_LARGE");
        assertThat(problem.path("status").asInt()).isEqualTo(413);
        assertThat(problem.path("instance").asString()).isEqualTo("/api/v1/activities");
        assertThat(response.getHeader("Connection")).isEqualTo("close");
        assertThat(response.getContentLength()).isEqualTo(response.getContentAsByteArray().length);
    }

    @Test
    void givenABodyOfUnknownLengthOverTheLimit_whenTheHandlerReadsIt_thenReadingStopsAtTheLimit() throws Exception {
        HttpServletRequest request = withoutLength(post(new byte[LIMIT * 4]));
        var seen = new AtomicReference<HttpServletRequest>();

        filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> seen.set((HttpServletRequest) req));

        InputStream body = seen.get().getInputStream();
        assertThatThrownBy(() -> body.transferTo(new ByteArrayOutputStream()))
                .isInstanceOf(PayloadTooLargeException.class);
    }

    @Test
    void givenABodyWithinTheLimit_whenTheHandlerReadsIt_thenItGetsEveryByte() throws Exception {
        HttpServletRequest request = withoutLength(post(new byte[LIMIT]));
        var seen = new AtomicReference<HttpServletRequest>();

        filter.doFilter(request, new MockHttpServletResponse(), (req, res) -> seen.set((HttpServletRequest) req));

        assertThat(seen.get().getInputStream().readAllBytes()).hasSize(LIMIT);
    }

    private static MockHttpServletRequest post(byte[] body) {
        var request = new MockHttpServletRequest("POST", "/api/v1/activities");
        request.setContentType("application/json");
        request.setContent(body);
        return request;
    }

    /** A chunked request: the container does not know the length up front. */
    private static HttpServletRequest withoutLength(HttpServletRequest request) {
        return new HttpServletRequestWrapper(request) {
            @Override
            public long getContentLengthLong() {
                return -1;
            }

            @Override
            public int getContentLength() {
                return -1;
            }
        };
    }
}
