package io.flashsale.adapter.web;

import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.accept.ContentNegotiationStrategy;
import org.springframework.web.accept.HeaderContentNegotiationStrategy;
import org.springframework.web.context.request.NativeWebRequest;

import java.util.List;

/**
 * Spring's {@code Accept} negotiation with every unreadable header refused alike. Spring turns a header its parser
 * rejects into 406, but its parser fails on some unterminated quotes with an {@link IndexOutOfBoundsException}
 * instead (for example {@code "a]]/n}, found by the fuzzer): uncaught, that failed the exception resolver itself and
 * the buyer got a 500. Such a header is now refused as the others are, and the answer is the usual problem.
 */
public final class ReadableAcceptHeader implements ContentNegotiationStrategy {

    private final HeaderContentNegotiationStrategy header = new HeaderContentNegotiationStrategy();

    @Override
    public List<MediaType> resolveMediaTypes(NativeWebRequest request) throws HttpMediaTypeNotAcceptableException {
        try {
            return header.resolveMediaTypes(request);
        } catch (IndexOutOfBoundsException unreadable) {
            throw new HttpMediaTypeNotAcceptableException("the Accept header cannot be read");
        }
    }

    /** The header's media ranges; {@link IllegalArgumentException} for any header Spring's parser cannot read. */
    static List<MediaType> parse(List<String> values) {
        try {
            return MediaType.parseMediaTypes(values);
        } catch (IndexOutOfBoundsException unreadable) {
            throw new IllegalArgumentException("the Accept header cannot be read", unreadable);
        }
    }
}
