package io.flashsale.adapter.web.security;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.Identifier;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives handlers a {@link BuyerId} from the {@code X-User-Id} header that the gateway sets.
 * Handlers declare the BuyerId first so that a missing buyer is refused before the body is read.
 */
public final class BuyerArgumentResolver implements HandlerMethodArgumentResolver {

    public static final String HEADER = "X-User-Id";

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == BuyerId.class;
    }

    @Override
    public BuyerId resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                   NativeWebRequest request, WebDataBinderFactory binderFactory) {
        String[] values = request.getHeaderValues(HEADER);
        if (values == null || values.length != 1 || !Identifier.isValid(values[0])) {
            throw new MissingUserException();
        }
        return new BuyerId(values[0]);
    }
}
