package io.flashsale.bootstrap.security;

/** An admin call without the right bearer token. */
public class UnauthorizedException extends RuntimeException {

    public UnauthorizedException() {
        super("an admin bearer token is required");
    }
}
