package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.ProblemCode;

/** A buyer call whose buyer cannot be established: answered 401 with {@link #code()}. */
public class BuyerAuthenticationException extends RuntimeException {

    private final ProblemCode code;

    public BuyerAuthenticationException(ProblemCode code, String detail) {
        super(detail, null, false, false);
        this.code = code;
    }

    public ProblemCode code() {
        return code;
    }

    /** A refusal about a bearer token, which RFC 6750 answers with a {@code WWW-Authenticate: Bearer} challenge. */
    public boolean aboutBearerToken() {
        return code == ProblemCode.TOKEN_MISSING || code == ProblemCode.TOKEN_INVALID
                || code == ProblemCode.TOKEN_EXPIRED;
    }
}
