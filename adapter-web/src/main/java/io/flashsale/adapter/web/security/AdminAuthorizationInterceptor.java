package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses {@link AdminOnly} handlers unless the request carries an operator's bearer token, and names that operator on
 * the request ({@link AdminOperator#ATTRIBUTE}).
 */
public final class AdminAuthorizationInterceptor implements HandlerInterceptor {

    private final AdminGate gate;

    public AdminAuthorizationInterceptor(AdminGate gate) {
        this.gate = gate;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method && method.hasMethodAnnotation(AdminOnly.class)) {
            switch (gate.check(request, "api")) {
                case AdminGate.Admitted admitted -> request.setAttribute(AdminOperator.ATTRIBUTE, admitted.operator());
                case AdminGate.Refused refused -> throw new UnauthorizedException();
                case AdminGate.Blocked blocked -> throw new AdminAttemptsBlockedException(blocked.retryAfter());
            }
        }
        return true;
    }
}
