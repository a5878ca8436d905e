package io.flashsale.adapter.web.security;

/**
 * Who an admitted admin call is, as the admin authentication names them: the request attribute {@link #ATTRIBUTE},
 * set by {@link AdminAuthorizationInterceptor} before an {@link AdminOnly} handler runs. The one admin token names
 * its holder {@value #TOKEN_HOLDER}; an audit takes the name from here, never from what the client says of itself.
 */
public final class AdminOperator {

    public static final String ATTRIBUTE = "io.flashsale.adapter.web.security.AdminOperator";
    public static final String TOKEN_HOLDER = "admin";

    private AdminOperator() {
    }
}
