package io.flashsale.adapter.web.security;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Gives {@link AdminOperator} parameters the operator {@link AdminAuthorizationInterceptor} authenticated. */
public final class AdminOperatorArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.hasParameterAnnotation(AdminOperator.class) && parameter.getParameterType() == String.class;
    }

    @Override
    public String resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                  NativeWebRequest request, WebDataBinderFactory binderFactory) {
        if (request.getAttribute(AdminOperator.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST) instanceof String name) {
            return name;
        }
        // Only an @AdminOnly handler has an authenticated operator: anything else is a wiring mistake, not a caller's.
        throw new IllegalStateException(parameter.getExecutable() + " asks for @AdminOperator but is not @AdminOnly");
    }
}
