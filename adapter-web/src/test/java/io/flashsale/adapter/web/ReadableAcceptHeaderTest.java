package io.flashsale.adapter.web;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.context.request.ServletWebRequest;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReadableAcceptHeaderTest {

    /** Found by the fuzzer: Spring's own parser fails on this with an IndexOutOfBoundsException, not as unreadable. */
    private static final String UNTERMINATED_QUOTE = "\"a/n";

    @Test
    void givenAHeaderSpringsParserFailsOn_whenNegotiated_thenRefusedAsUnreadable() {
        assertThatThrownBy(() -> MediaType.parseMediaTypes(List.of(UNTERMINATED_QUOTE)))
                .as("the parser's own failure, which this class exists for")
                .isInstanceOf(IndexOutOfBoundsException.class);

        assertThatThrownBy(() -> new ReadableAcceptHeader().resolveMediaTypes(request(UNTERMINATED_QUOTE)))
                .isInstanceOf(HttpMediaTypeNotAcceptableException.class);
        assertThatThrownBy(() -> new ReadableAcceptHeader().resolveMediaTypes(request("/api+v1")))
                .isInstanceOf(HttpMediaTypeNotAcceptableException.class);
        assertThatThrownBy(() -> ReadableAcceptHeader.parse(List.of(UNTERMINATED_QUOTE)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenAReadableHeader_whenNegotiated_thenItsRangesAsSpringReadsThem() throws Exception {
        assertThat(new ReadableAcceptHeader().resolveMediaTypes(request("application/json, */*;q=0.1")))
                .containsExactly(MediaType.APPLICATION_JSON, MediaType.parseMediaType("*/*;q=0.1"));
        assertThat(ReadableAcceptHeader.parse(List.of("text/html"))).containsExactly(MediaType.TEXT_HTML);
    }

    private static ServletWebRequest request(String accept) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/activities/a");
        request.addHeader("Accept", accept);
        return new ServletWebRequest(request);
    }
}
