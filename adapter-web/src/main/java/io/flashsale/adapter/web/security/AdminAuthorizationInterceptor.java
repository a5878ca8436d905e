package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/** Refuses {@link AdminOnly} handlers unless the request carries the admin bearer token. */
public final class AdminAuthorizationInterceptor implements HandlerInterceptor {

    private final AdminToken token;

    public AdminAuthorizationInterceptor(AdminToken token) {
        this.token = token;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method && method.hasMethodAnnotation(AdminOnly.class)
                && !token.matches(BearerTokens.of(request))) {
            throw new UnauthorizedException();
        }
        return true;
    }
}
