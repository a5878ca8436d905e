package io.flashsale.adapter.web.security;

import io.flashsale.domain.reservation.BuyerId;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives handlers the {@link BuyerId} the {@link BuyerAuthenticator} establishes. Handlers declare the BuyerId first so
 * that a caller who is not a buyer is refused before the body is read.
 */
public final class BuyerArgumentResolver implements HandlerMethodArgumentResolver {

    /** The header a trusted gateway names the buyer in ({@link TrustedHeaderBuyerAuthenticator}). */
    public static final String HEADER = TrustedHeaderBuyerAuthenticator.HEADER;

    private final BuyerAuthenticator buyers;

    public BuyerArgumentResolver(BuyerAuthenticator buyers) {
        this.buyers = buyers;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == BuyerId.class;
    }

    @Override
    public BuyerId resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                   NativeWebRequest request, WebDataBinderFactory binderFactory) {
        return buyers.authenticate(request.getNativeRequest(HttpServletRequest.class));
    }
}
