package io.flashsale.adapter.web.security;

/** An admin call without the right bearer token. */
public class UnauthorizedException extends RuntimeException {

    public UnauthorizedException() {
        super("an admin bearer token is required");
    }
}
