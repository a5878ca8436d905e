package io.flashsale.adapter.web.security;

import java.time.Duration;

/** Failed admin attempts per client: counted, and a client that failed too often waits before it may try again. */
public interface AdminAttempts {

    /** How long this client must wait before its next attempt is looked at; zero when it may try now. */
    Duration blockedFor(String client);

    /** A wrong token from this client on this surface ({@code api} or {@code management}). */
    void failed(String client, String surface);

    /** No limit and no count: for tests of the token check alone. */
    static AdminAttempts unlimited() {
        return new AdminAttempts() {
            @Override
            public Duration blockedFor(String client) {
                return Duration.ZERO;
            }

            @Override
            public void failed(String client, String surface) {
            }
        };
    }
}
