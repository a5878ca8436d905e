package io.flashsale.adapter.web.security;

/** A buyer call without a well-formed X-User-Id header. */
public class MissingUserException extends RuntimeException {

    public MissingUserException() {
        super("the X-User-Id header must hold 1-64 characters of [A-Za-z0-9_-]");
    }
}
