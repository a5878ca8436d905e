package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.CompleteProblemWriter;
import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.adapter.web.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.security.Principal;
import java.util.Set;

/**
 * The operators' surface (the actuator, on its own port): liveness and readiness answer anyone, everything else needs
 * {@code Authorization: Bearer <admin token>}. An admitted request carries the operator whose token it showed as its
 * principal, in role {@link #ROLE}, so that {@code show-details: when-authorized} shows health details to operators
 * only.
 */
public final class ManagementAccessFilter extends OncePerRequestFilter {

    public static final String ROLE = "ADMIN";

    private final AdminGate gate;
    private final CompleteProblemWriter problems;
    private final Set<String> openPaths;

    /** @param basePath the actuator's base path, e.g. {@code /actuator} */
    public ManagementAccessFilter(AdminGate gate, CompleteProblemWriter problems, String basePath) {
        this.gate = gate;
        this.problems = problems;
        this.openPaths = Set.of(basePath + "/health/liveness", basePath + "/health/readiness");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (openPaths.contains(request.getRequestURI()) && BearerTokens.of(request) == null) {
            chain.doFilter(request, response);
            return;
        }
        switch (gate.check(request, "management")) {
            case AdminGate.Admitted admitted -> chain.doFilter(new Operator(request, admitted.operator()), response);
            case AdminGate.Refused refused -> {
                response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                problems.write(request, response,
                        Problems.of(ProblemCode.UNAUTHORIZED, "a valid admin bearer token is required"));
            }
            case AdminGate.Blocked blocked -> {
                var refusal = new AdminAttemptsBlockedException(blocked.retryAfter());
                response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
                problems.write(request, response, refusal.problem());
            }
        }
    }

    /** The request of an operator who showed their admin token. */
    private static final class Operator extends HttpServletRequestWrapper {

        private final Principal operator;

        Operator(HttpServletRequest request, String operator) {
            super(request);
            this.operator = () -> operator;
        }

        @Override
        public Principal getUserPrincipal() {
            return operator;
        }

        @Override
        public boolean isUserInRole(String role) {
            return ROLE.equals(role);
        }
    }
}
