package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.security.VerifiedTokens.TokenDigest;
import io.flashsale.adapter.web.security.VerifiedTokens.Verified;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.testsupport.MovableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class VerifiedTokensTest {

    private static final Duration SKEW = Duration.ofSeconds(30);

    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-05T04:00:00Z"));

    @Test
    void givenARememberedToken_whenAskedWithTheSameToken_thenItsVerification_andATokenOneCharacterOffIsUnknown() {
        VerifiedTokens tokens = new VerifiedTokens(10, clock, SKEW);
        Verified alice = new Verified(new BuyerId("alice"), clock.instant().plusSeconds(600), "phone-1");

        tokens.remember("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl", alice);

        assertThat(tokens.get("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl")).isEqualTo(alice);
        assertThat(tokens.get("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJm")).isNull();
        assertThat(tokens.get("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ8.c2lnbmF0dXJl")).isNull();
    }

    @Test
    void givenATokenRemembered_whenItsExpiryAndTheSkewHavePassed_thenItHasLeft() {
        VerifiedTokens tokens = new VerifiedTokens(10, clock, SKEW,
                () -> TimeUnit.SECONDS.toNanos(clock.instant().getEpochSecond()) + clock.instant().getNano());
        tokens.remember("short", new Verified(new BuyerId("alice"), clock.instant().plusSeconds(60)));
        tokens.remember("long", new Verified(new BuyerId("bob"), clock.instant().plusSeconds(3600)));

        clock.advance(Duration.ofSeconds(59).plus(SKEW));
        assertThat(tokens.get("short")).isNotNull();

        clock.advance(Duration.ofSeconds(2));
        assertThat(tokens.get("short")).isNull();
        assertThat(tokens.get("long")).isNotNull();
        assertThat(tokens.size()).isEqualTo(1);
    }

    @Test
    void givenMoreTokensThanItsSize_whenRemembered_thenItHoldsNoMoreThanItsSize() {
        VerifiedTokens tokens = new VerifiedTokens(100, clock, SKEW);
        for (int i = 0; i < 1_000; i++) {
            tokens.remember("token-" + i, new Verified(new BuyerId("buyer-" + i), clock.instant().plusSeconds(600)));
        }

        assertThat(tokens.size()).isEqualTo(100);
    }

    @Test
    void givenAToken_whenDigested_thenTheKeyIsItsSha256_notTheToken() {
        // SHA-256("abc"), FIPS 180-2's first example.
        assertThat(TokenDigest.of("abc")).isEqualTo(new TokenDigest(0xba7816bf8f01cfeaL, 0x414140de5dae2223L,
                0xb00361a396177a9cL, 0xb410ff61f20015adL));
    }
}
