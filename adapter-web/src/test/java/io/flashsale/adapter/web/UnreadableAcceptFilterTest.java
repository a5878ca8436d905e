package io.flashsale.adapter.web;

import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnreadableAcceptFilterTest {

    /** Found by the fuzzer on a path no controller maps: Spring's parser fails on it with an index exception. */
    private static final String UNTERMINATED_QUOTE = "\"/r1372R";

    @Test
    void givenAnAcceptHeaderSpringsParserFailsOn_thenTheChainReadsTheStandInEverywhere() throws Exception {
        assertThatThrownBy(() -> MediaType.parseMediaTypes(List.of(UNTERMINATED_QUOTE)))
                .as("the parser's own failure, which this filter exists for")
                .isInstanceOf(IndexOutOfBoundsException.class);

        HttpServletRequest passed = passedOn(UNTERMINATED_QUOTE);

        assertThat(passed.getHeader("accept")).isEqualTo(UnreadableAcceptFilter.STAND_IN);
        assertThat(Collections.list(passed.getHeaders("Accept"))).containsExactly(UnreadableAcceptFilter.STAND_IN);
        assertThat(MediaType.parseMediaTypes(Collections.list(passed.getHeaders("Accept"))))
                .as("readable, and naming nothing the service answers with")
                .noneMatch(type -> type.includes(MediaType.APPLICATION_JSON) || type.includes(MediaType.TEXT_HTML));
        assertThat(passed.getHeader("X-Other")).isEqualTo("kept");
    }

    @Test
    void givenAHeaderThatIsMerelyInvalid_thenItIsReplacedToo() throws Exception {
        assertThat(passedOn("/api+v1").getHeader("Accept")).isEqualTo(UnreadableAcceptFilter.STAND_IN);
    }

    @Test
    void givenAReadableHeaderOrNone_thenTheRequestGoesOnUntouched() throws Exception {
        for (String accept : new String[] {"application/json", "image/*, application/json;q=0.5", "*/*"}) {
            var request = request(accept);
            assertThat(passedOn(request)).isSameAs(request);
        }
        var none = new MockHttpServletRequest("GET", "/api/v1/activities/");
        assertThat(passedOn(none)).isSameAs(none);
    }

    private static HttpServletRequest passedOn(String accept) throws Exception {
        return passedOn(request(accept));
    }

    private static HttpServletRequest passedOn(MockHttpServletRequest request) throws Exception {
        var chain = new MockFilterChain();
        new UnreadableAcceptFilter().doFilter(request, new MockHttpServletResponse(), chain);
        return (HttpServletRequest) chain.getRequest();
    }

    private static MockHttpServletRequest request(String accept) {
        var request = new MockHttpServletRequest("GET", "/api/v1/activities/");
        request.addHeader("Accept", accept);
        request.addHeader("X-Other", "kept");
        return request;
    }
}
