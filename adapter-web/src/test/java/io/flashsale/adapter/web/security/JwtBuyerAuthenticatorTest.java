package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.testsupport.MovableClock;
import io.flashsale.testsupport.TestBuyerTokens;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JwtBuyerAuthenticatorTest {

    private static final Duration SKEW = Duration.ofSeconds(30);
    private static final TestBuyerTokens ISSUER = TestBuyerTokens.rsa();
    private static final Set<SignatureAlgorithm> ACCEPTED = Set.of(SignatureAlgorithm.RS256, SignatureAlgorithm.ES256);

    private final MovableClock clock = new MovableClock(Instant.now());
    private final AtomicInteger verifications = new AtomicInteger();
    private final JwtBuyerAuthenticator authenticator = authenticator(
            BuyerTokenDecoders.fromPublicKeyPem(ISSUER.publicKeyPem(), ACCEPTED), "sub");

    @Test
    void givenATokenOfTheIssuer_whenAuthenticated_thenTheBuyerIsItsSubject() {
        assertThat(authenticate("Bearer " + ISSUER.forBuyer("alice"))).isEqualTo(new BuyerId("alice"));
    }

    @Test
    void givenNoBearerToken_whenAuthenticated_thenTokenMissing() {
        for (String header : new String[] {null, "", "Basic YWxpY2U6eA==", "Bearer ", "Bearer    ", "alice"}) {
            assertRefused(header, ProblemCode.TOKEN_MISSING);
        }
    }

    @Test
    void givenTwoAuthorizationHeaders_whenAuthenticated_thenTokenMissing() {
        var request = new MockHttpServletRequest();
        request.addHeader("Authorization", "Bearer " + ISSUER.forBuyer("alice"));
        request.addHeader("Authorization", "Bearer " + ISSUER.forBuyer("bob"));

        assertThatThrownBy(() -> authenticator.authenticate(request))
                .isInstanceOfSatisfying(BuyerAuthenticationException.class,
                        e -> assertThat(e.code()).isEqualTo(ProblemCode.TOKEN_MISSING));
    }

    @Test
    void givenTokensNotSignedByTheIssuerWithAnAcceptedAlgorithm_whenAuthenticated_thenTokenInvalid() {
        Map<String, Object> alice = TestBuyerTokens.claims("alice", clock.instant().plusSeconds(600));
        for (String token : new String[] {
                TestBuyerTokens.newRsa().token(alice),           // another key
                TestBuyerTokens.newEc().token(alice),            // another key, an accepted algorithm
                ISSUER.token("RS512", alice),                    // the issuer's key, an algorithm not accepted
                ISSUER.token("HS256", alice),                    // the public key used as an HMAC secret
                ISSUER.token("none", alice),                     // no signature
                tampered(ISSUER.token(alice)),                   // alice's signature on bob's claims
                "not.a.jwt", "garbage"}) {
            assertRefused("Bearer " + token, ProblemCode.TOKEN_INVALID);
        }
    }

    @Test
    void givenAnExpiredToken_whenAuthenticated_thenTokenExpired_butWithinTheSkewItIsTaken() {
        Map<String, Object> claims = TestBuyerTokens.claims("alice", clock.instant().minusSeconds(10));
        assertThat(authenticate("Bearer " + ISSUER.token(claims))).isEqualTo(new BuyerId("alice"));

        claims = TestBuyerTokens.claims("alice", clock.instant().minus(SKEW).minusSeconds(1));
        assertRefused("Bearer " + ISSUER.token(claims), ProblemCode.TOKEN_EXPIRED);
    }

    @Test
    void givenATokenVerifiedOnce_whenUsedAgain_thenNotVerifiedAgain_andRefusedOnceItExpiresThoughStillRemembered() {
        Instant expiresAt = clock.instant().plusSeconds(60);
        String token = "Bearer " + ISSUER.token(TestBuyerTokens.claims("alice", expiresAt));

        assertThat(authenticate(token)).isEqualTo(new BuyerId("alice"));
        assertThat(authenticate(token)).isEqualTo(new BuyerId("alice"));
        assertThat(verifications).hasValue(1);

        clock.set(expiresAt.plus(SKEW).plusSeconds(1));
        assertRefused(token, ProblemCode.TOKEN_EXPIRED);
        assertThat(verifications).as("refused from what was remembered").hasValue(1);
    }

    @Test
    void givenATokenWithoutExpiry_orNotValidYet_orWithoutAWellFormedBuyer_whenAuthenticated_thenTokenInvalid() {
        Map<String, Object> noExpiry = Map.of("sub", "alice");
        Map<String, Object> noBuyer = Map.of("exp", clock.instant().plusSeconds(600).getEpochSecond());
        Map<String, Object> notYet = new java.util.HashMap<>(TestBuyerTokens.claims("alice", clock.instant().plusSeconds(600)));
        notYet.put("nbf", clock.instant().plus(SKEW).plusSeconds(5).getEpochSecond());
        for (Map<String, Object> claims : java.util.List.of(noExpiry, notYet,
                TestBuyerTokens.claims("bob smith", clock.instant().plusSeconds(600)), noBuyer)) {
            assertRefused("Bearer " + ISSUER.token(claims), ProblemCode.TOKEN_INVALID);
        }
    }

    @Test
    void givenAnotherBuyerClaim_whenAuthenticated_thenTheBuyerIsThatClaim() {
        var byUserId = authenticator(BuyerTokenDecoders.fromPublicKeyPem(ISSUER.publicKeyPem(), ACCEPTED), "uid");
        Map<String, Object> claims = new java.util.HashMap<>(TestBuyerTokens.claims("subject-1", clock.instant().plusSeconds(60)));
        claims.put("uid", "carol");

        assertThat(byUserId.authenticate(request("Bearer " + ISSUER.token(claims)))).isEqualTo(new BuyerId("carol"));
    }

    @Test
    void givenAnEs256Issuer_whenItsTokenIsAuthenticated_thenTheBuyerIsItsSubject() {
        TestBuyerTokens ec = TestBuyerTokens.newEc();
        var authenticator = authenticator(BuyerTokenDecoders.fromPublicKeyPem(ec.publicKeyPem(), ACCEPTED), "sub");

        assertThat(authenticator.authenticate(request("Bearer " + ec.forBuyer("dave")))).isEqualTo(new BuyerId("dave"));
    }

    @Test
    void givenAnIssuerWhoseKeysCannotBeRead_whenAuthenticated_thenUnavailableNotUnauthorized() {
        var unreachable = authenticator(token -> {
            throw new JwtException("Couldn't retrieve remote JWK set");
        }, "sub");

        assertThatThrownBy(() -> unreachable.authenticate(request("Bearer " + ISSUER.forBuyer("alice"))))
                .isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void givenOncePerRequest_whenAuthenticatedTwiceOnOneRequest_thenTheSecondTakesTheFirstAnswer() {
        BuyerAuthenticator once = BuyerAuthenticator.oncePerRequest(authenticator);
        var request = request("Bearer " + TestBuyerTokens.newRsa().forBuyer("alice"));

        assertThatThrownBy(() -> once.authenticate(request)).isInstanceOf(BuyerAuthenticationException.class);
        assertThatThrownBy(() -> once.authenticate(request)).isInstanceOf(BuyerAuthenticationException.class);
        assertThat(verifications).hasValue(1);
    }

    private JwtBuyerAuthenticator authenticator(JwtDecoder decoder, String claim) {
        JwtDecoder counted = token -> {
            verifications.incrementAndGet();
            return decoder.decode(token);
        };
        return new JwtBuyerAuthenticator(counted, claim, clock, SKEW, new VerifiedTokens(100, clock, SKEW));
    }

    private BuyerId authenticate(String authorization) {
        return authenticator.authenticate(request(authorization));
    }

    private void assertRefused(String authorization, ProblemCode code) {
        assertThatThrownBy(() -> authenticate(authorization)).as("Authorization: %s", authorization)
                .isInstanceOfSatisfying(BuyerAuthenticationException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    private static MockHttpServletRequest request(String authorization) {
        var request = new MockHttpServletRequest();
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        return request;
    }

    /** The token's signature kept, its claims replaced by bob's. */
    private static String tampered(String token) {
        String[] parts = token.split("\\.");
        String bob = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"sub\":\"bob\",\"exp\":" + Instant.now().plusSeconds(600).getEpochSecond() + "}").getBytes());
        return parts[0] + "." + bob + "." + parts[2];
    }
}
