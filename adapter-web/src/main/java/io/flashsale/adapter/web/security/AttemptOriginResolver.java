package io.flashsale.adapter.web.security;

import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.domain.risk.DeviceId;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import java.net.InetAddress;
import java.util.function.Function;

/**
 * Gives handlers the {@link AttemptOrigin} the risk control judges (ADR 0081): the request's remote address (the
 * connection's, or the one a trusted proxy forwarded, as for {@link ClientAddressResolver}, but never exempt and
 * whether or not the client rate limit is on) and the device id, from a request header or from the buyer token's
 * claim. A device id that is not 1-128 characters of {@code [A-Za-z0-9._:-]} counts as none.
 */
public final class AttemptOriginResolver implements HandlerMethodArgumentResolver {

    /** Where {@link JwtBuyerAuthenticator} leaves the device claim of a verified token. */
    public static final String DEVICE_CLAIM_ATTRIBUTE = AttemptOriginResolver.class.getName() + ".deviceClaim";

    private final Function<HttpServletRequest, String> device;

    private AttemptOriginResolver(Function<HttpServletRequest, String> device) {
        this.device = device;
    }

    /** The device id is what the client sends in {@code header} (e.g. {@code X-Device-Id}): a claim, not a proof. */
    public static AttemptOriginResolver deviceFromHeader(String header) {
        return new AttemptOriginResolver(request -> request.getHeader(header));
    }

    /** The device id is a claim of the verified buyer token ({@code buyer-auth=jwt}); no token, no device. */
    public static AttemptOriginResolver deviceFromTokenClaim() {
        return new AttemptOriginResolver(request -> request.getAttribute(DEVICE_CLAIM_ATTRIBUTE) instanceof String claim
                ? claim : null);
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == AttemptOrigin.class;
    }

    @Override
    public AttemptOrigin resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                         NativeWebRequest request, WebDataBinderFactory binderFactory) {
        return resolve(request.getNativeRequest(HttpServletRequest.class));
    }

    /** The same answer for a servlet request, for the lean reservation path (ADR 35). */
    public AttemptOrigin resolve(HttpServletRequest http) {
        if (http == null) {
            return AttemptOrigin.UNKNOWN;
        }
        InetAddress address = IpAddresses.parse(http.getRemoteAddr());
        String reported = device.apply(http);
        return new AttemptOrigin(address == null ? null : IpAddresses.canonical(address),
                DeviceId.isValid(reported) ? new DeviceId(reported) : null);
    }
}
