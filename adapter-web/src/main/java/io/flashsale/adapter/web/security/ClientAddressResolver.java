package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import java.net.InetAddress;

/**
 * Gives handlers the {@link ClientAddress} the per-client rate limit counts. Off: always {@link ClientAddress#NONE},
 * nothing read. On: the request's remote address, which the server's forwarded-headers handling has already taken
 * from {@code X-Forwarded-For} when, and only when, the connection came from a configured trusted proxy. No header is
 * read here. An address that does not parse as IPv4 or IPv6 counts under one shared key, so garbage never escapes
 * the limit. Loopback is exempt only when configured, and only as the connection's own address, never as a forwarded
 * one.
 */
public final class ClientAddressResolver implements HandlerMethodArgumentResolver {

    /** Set by Tomcat's RemoteIpValve on a request whose forwarded headers it honoured. */
    static final String FORWARDED_ATTRIBUTE = "org.apache.tomcat.request.forwarded";
    static final ClientAddress UNPARSED = new ClientAddress("unparsed");

    private final boolean enabled;
    private final boolean exemptLoopback;

    /** @param exemptLoopback let connections from this machine itself (its tools, health checks) past the limit */
    public ClientAddressResolver(boolean enabled, boolean exemptLoopback) {
        this.enabled = enabled;
        this.exemptLoopback = exemptLoopback;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == ClientAddress.class;
    }

    @Override
    public ClientAddress resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                         NativeWebRequest request, WebDataBinderFactory binderFactory) {
        return resolve(request.getNativeRequest(HttpServletRequest.class));
    }

    /** The same answer for a servlet request, for the lean reservation path (ADR 35). */
    public ClientAddress resolve(HttpServletRequest http) {
        if (!enabled || http == null) {
            return ClientAddress.NONE;
        }
        return of(http.getRemoteAddr(), http.getAttribute(FORWARDED_ATTRIBUTE) != null, exemptLoopback);
    }

    static ClientAddress of(String remoteAddress, boolean forwarded, boolean exemptLoopback) {
        InetAddress address = IpAddresses.parse(remoteAddress);
        if (address == null) {
            return UNPARSED;
        }
        if (exemptLoopback && !forwarded && address.isLoopbackAddress()) {
            return ClientAddress.NONE;
        }
        return new ClientAddress(IpAddresses.canonical(address));
    }
}
