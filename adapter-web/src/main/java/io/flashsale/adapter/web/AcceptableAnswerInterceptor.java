package io.flashsale.adapter.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import java.util.Collections;
import java.util.List;

/**
 * A call that changes something (a reservation, a payment, a sale) is refused with 406 before it acts when its
 * {@code Accept} header rules out the JSON it would be answered with. Spring MVC negotiates after the handler has
 * returned, so the fuzzer's reservation with {@code Accept: image/*} took its units and was answered 406 (defect 15 of
 * docs/reliability.md): the buyer held a reservation whose id they were never told. Reads are left to the usual
 * negotiation: they change nothing. Problems are problem+json whatever the header says ({@link Problems}).
 */
public final class AcceptableAnswerInterceptor implements HandlerInterceptor {

    private static final List<MediaType> ANSWERED_WITH = List.of(MediaType.APPLICATION_JSON);

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws HttpMediaTypeNotAcceptableException {
        if (!(handler instanceof HandlerMethod) || isSafe(request.getMethod())) {
            return true;
        }
        List<String> values = Collections.list(request.getHeaders(HttpHeaders.ACCEPT));
        if (values.isEmpty()) {
            return true;
        }
        List<MediaType> accepted;
        try {
            accepted = ReadableAcceptHeader.parse(values);
        } catch (IllegalArgumentException unreadable) {
            throw new HttpMediaTypeNotAcceptableException(ANSWERED_WITH);
        }
        if (accepted.isEmpty() || accepted.stream().anyMatch(AcceptableAnswerInterceptor::takesJson)) {
            return true;
        }
        throw new HttpMediaTypeNotAcceptableException(ANSWERED_WITH);
    }

    private static boolean takesJson(MediaType range) {
        return range.getQualityValue() > 0 && range.includes(MediaType.APPLICATION_JSON);
    }

    private static boolean isSafe(String method) {
        return "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
    }
}
