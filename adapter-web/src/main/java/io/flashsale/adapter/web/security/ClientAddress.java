package io.flashsale.adapter.web.security;

/**
 * The address a request came from, for the per-client rate limit; {@code value} is null when the limit is off or the
 * connection is exempt (loopback, when configured).
 */
public record ClientAddress(String value) {

    public static final ClientAddress NONE = new ClientAddress(null);
}
