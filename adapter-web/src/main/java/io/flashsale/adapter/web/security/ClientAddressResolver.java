package io.flashsale.adapter.web.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import java.util.regex.Pattern;

/**
 * Gives handlers the {@link ClientAddress} the per-client rate limit counts. Off: always {@link ClientAddress#NONE},
 * nothing read. On: the last entry of the trusted header (the one the gateway in front of the service added; entries
 * before it are what the client claimed), else the connection's remote address. Loopback addresses are exempt, and a
 * value that is no IPv4 or IPv6 address is ignored (the remote address counts instead).
 */
public final class ClientAddressResolver implements HandlerMethodArgumentResolver {

    private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private final boolean enabled;
    private final String trustedHeader;

    /** @param trustedHeader e.g. {@code X-Forwarded-For}; blank: the connection's remote address only */
    public ClientAddressResolver(boolean enabled, String trustedHeader) {
        this.enabled = enabled;
        this.trustedHeader = trustedHeader == null || trustedHeader.isBlank() ? null : trustedHeader.trim();
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
        String header = trustedHeader == null ? null : http.getHeader(trustedHeader);
        return of(header, http.getRemoteAddr());
    }

    /** The address from the trusted header's last entry, else the remote address; loopback and garbage are none. */
    static ClientAddress of(String trustedHeaderValue, String remoteAddress) {
        String fromHeader = lastEntry(trustedHeaderValue);
        String address = fromHeader != null && ADDRESS.matcher(fromHeader).matches() ? fromHeader : remoteAddress;
        if (address == null || !ADDRESS.matcher(address).matches() || isLoopback(address)) {
            return ClientAddress.NONE;
        }
        return new ClientAddress(address.toLowerCase(java.util.Locale.ROOT));
    }

    private static String lastEntry(String value) {
        if (value == null) {
            return null;
        }
        int comma = value.lastIndexOf(',');
        String last = value.substring(comma + 1).trim();
        return last.isEmpty() ? null : last;
    }

    private static boolean isLoopback(String address) {
        return address.startsWith("127.") || address.equals("::1") || address.equals("0:0:0:0:0:0:0:1")
                || address.startsWith("::ffff:127.");
    }
}
