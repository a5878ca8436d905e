package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.ProblemCode;

/** A buyer call without a well-formed X-User-Id header. */
public class MissingUserException extends BuyerAuthenticationException {

    public MissingUserException() {
        super(ProblemCode.MISSING_USER, "the X-User-Id header must hold 1-64 characters of [A-Za-z0-9_-]");
    }
}
