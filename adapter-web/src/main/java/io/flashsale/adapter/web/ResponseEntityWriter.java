package io.flashsale.adapter.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServletServerHttpResponse;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a controller's {@link ResponseEntity} outside the dispatcher as Spring MVC writes it when no content is
 * negotiated: the same message converters (so the same JSON, the problem mix-in included), {@code application/json},
 * or {@code application/problem+json} for a problem whose {@code instance} is then the request path.
 */
public final class ResponseEntityWriter {

    private final List<HttpMessageConverter<?>> converters;
    private final Map<Class<?>, HttpMessageConverter<Object>> chosen = new ConcurrentHashMap<>();

    /** @param converters Spring MVC's own, in its order */
    public ResponseEntityWriter(List<HttpMessageConverter<?>> converters) {
        this.converters = List.copyOf(converters);
    }

    public void write(ResponseEntity<?> entity, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Object body = entity.getBody();
        MediaType type = MediaType.APPLICATION_JSON;
        if (body instanceof ProblemDetail problem) {
            type = MediaType.APPLICATION_PROBLEM_JSON;
            if (problem.getInstance() == null) {
                problem.setInstance(URI.create(request.getRequestURI()));
            }
        }
        ServletServerHttpResponse out = new ServletServerHttpResponse(response);
        out.setStatusCode(entity.getStatusCode());
        out.getHeaders().putAll(entity.getHeaders());
        if (body == null) {
            out.flush();
            return;
        }
        converter(body.getClass(), type).write(body, type, out);
    }

    @SuppressWarnings("unchecked")
    private HttpMessageConverter<Object> converter(Class<?> type, MediaType mediaType) {
        return chosen.computeIfAbsent(type, key -> (HttpMessageConverter<Object>) converters.stream()
                .filter(converter -> converter.canWrite(key, mediaType)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no converter writes " + key + " as " + mediaType)));
    }
}
