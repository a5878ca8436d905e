package io.flashsale.adapter.web.security;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code String} parameter of an {@link AdminOnly} handler that receives the name of the operator whose token
 * authenticated the call ({@link AdminOperatorArgumentResolver}). The same name is on the request as the attribute
 * {@link #ATTRIBUTE}, for code that is not a handler.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface AdminOperator {

    String ATTRIBUTE = "io.flashsale.adminOperator";
}
