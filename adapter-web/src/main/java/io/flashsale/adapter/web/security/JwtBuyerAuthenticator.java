package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.ProblemCode;
import io.flashsale.adapter.web.security.VerifiedTokens.Verified;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.Identifier;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Enumeration;

/**
 * The buyer a signed JWT names ({@code Authorization: Bearer <token>}): the signature and algorithm checked by the
 * {@link JwtDecoder}, {@code exp} (required) and {@code nbf} here against the clock with a small skew, the buyer taken
 * from one claim ({@code sub} by default). A verified token is remembered until it expires ({@link VerifiedTokens});
 * its expiry is checked on every use all the same.
 */
public final class JwtBuyerAuthenticator implements BuyerAuthenticator {

    private static final String BEARER = "Bearer ";

    private final JwtDecoder decoder;
    private final String buyerClaim;
    private final Clock clock;
    private final Duration skew;
    private final VerifiedTokens verified;
    private final String deviceClaim;

    public JwtBuyerAuthenticator(JwtDecoder decoder, String buyerClaim, Clock clock, Duration skew,
                                 VerifiedTokens verified) {
        this(decoder, buyerClaim, clock, skew, verified, null);
    }

    /**
     * @param deviceClaim the claim naming the buyer's device, left on the request for the risk control
     *                    ({@link AttemptOriginResolver#DEVICE_CLAIM_ATTRIBUTE}); null: none is read
     */
    public JwtBuyerAuthenticator(JwtDecoder decoder, String buyerClaim, Clock clock, Duration skew,
                                 VerifiedTokens verified, String deviceClaim) {
        this.deviceClaim = deviceClaim;
        this.decoder = decoder;
        this.buyerClaim = buyerClaim;
        this.clock = clock;
        this.skew = skew;
        this.verified = verified;
    }

    @Override
    public BuyerId authenticate(HttpServletRequest request) {
        String token = bearerToken(request.getHeaders(HttpHeaders.AUTHORIZATION));
        Instant now = clock.instant();
        VerifiedTokens.TokenDigest digest = VerifiedTokens.TokenDigest.of(token);
        Verified known = verified.get(digest);
        if (known == null) {
            known = verify(token, now);
            verified.remember(digest, known);
        } else if (expired(known.expiresAt(), now)) {
            throw expiredToken();
        }
        if (known.device() != null) {
            request.setAttribute(AttemptOriginResolver.DEVICE_CLAIM_ATTRIBUTE, known.device());
        }
        return known.buyer();
    }

    private Verified verify(String token, Instant now) {
        Jwt jwt;
        try {
            jwt = decoder.decode(token);
        } catch (BadJwtException e) {
            throw invalid("the bearer token is not a JWT signed by the buyers' issuer with an accepted algorithm");
        } catch (JwtException e) {
            // Not the token's fault: the issuer's key set could not be read. A 503 to try again, not a 401.
            throw new StoreUnavailableException("the buyers' issuer keys could not be read", e);
        }
        Instant expiresAt = jwt.getExpiresAt();
        if (expiresAt == null) {
            throw invalid("the bearer token has no exp claim");
        }
        if (expired(expiresAt, now)) {
            throw expiredToken();
        }
        Instant notBefore = jwt.getNotBefore();
        if (notBefore != null && now.plus(skew).isBefore(notBefore)) {
            throw invalid("the bearer token is not valid yet (nbf)");
        }
        String buyer = jwt.getClaimAsString(buyerClaim);
        if (!Identifier.isValid(buyer)) {
            throw invalid("the bearer token's " + buyerClaim + " claim must hold 1-64 characters of [A-Za-z0-9_-]");
        }
        return new Verified(new BuyerId(buyer), expiresAt,
                deviceClaim == null ? null : jwt.getClaimAsString(deviceClaim));
    }

    private boolean expired(Instant expiresAt, Instant now) {
        return now.isAfter(expiresAt.plus(skew));
    }

    /** The one Authorization header's bearer token; refused as missing when there is none (or more than one). */
    private static String bearerToken(Enumeration<String> values) {
        if (values == null || !values.hasMoreElements()) {
            throw missing();
        }
        String value = values.nextElement();
        if (values.hasMoreElements() || !value.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            throw missing();
        }
        String token = value.substring(BEARER.length()).strip();
        if (token.isEmpty()) {
            throw missing();
        }
        return token;
    }

    private static BuyerAuthenticationException missing() {
        return new BuyerAuthenticationException(ProblemCode.TOKEN_MISSING,
                "buyer calls need one Authorization: Bearer <token> header");
    }

    private static BuyerAuthenticationException invalid(String detail) {
        return new BuyerAuthenticationException(ProblemCode.TOKEN_INVALID, detail);
    }

    private static BuyerAuthenticationException expiredToken() {
        return new BuyerAuthenticationException(ProblemCode.TOKEN_EXPIRED, "the bearer token has expired");
    }
}
