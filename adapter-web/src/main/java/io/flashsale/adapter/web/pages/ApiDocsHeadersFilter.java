package io.flashsale.adapter.web.pages;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * The API docs (Swagger UI and the OpenAPI description it reads) with the pages' browser headers, before the handler
 * writes anything: a policy Swagger UI works under ({@link PageHeaders#API_DOCS_POLICY}), never framed, the type as
 * sent, no referrer sent along.
 */
public final class ApiDocsHeadersFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader("Content-Security-Policy", PageHeaders.API_DOCS_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        chain.doFilter(request, response);
    }
}
