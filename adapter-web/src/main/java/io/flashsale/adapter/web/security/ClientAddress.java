package io.flashsale.adapter.web.security;

/**
 * The address a request came from, for the per-client rate limit; {@code value} is null when the limit is off, the
 * address is unknown or exempt (loopback: the service's own tools and health checks).
 */
public record ClientAddress(String value) {

    public static final ClientAddress NONE = new ClientAddress(null);
}
