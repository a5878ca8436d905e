package io.flashsale.adapter.web.security;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Set;

/**
 * Spring Security's Nimbus {@link JwtDecoder} for buyer tokens, from a public key (PEM, RSA or EC) or a JWK set URI,
 * accepting only the given signature algorithms. The decoder checks form, algorithm and signature;
 * {@link JwtBuyerAuthenticator} checks the times against its own clock, so the decoder's timestamp check is off.
 */
public final class BuyerTokenDecoders {

    private BuyerTokenDecoders() {
    }

    /** A decoder for tokens signed by the private half of {@code pem}'s key ({@code -----BEGIN PUBLIC KEY-----}). */
    public static JwtDecoder fromPublicKeyPem(String pem, Set<SignatureAlgorithm> algorithms) {
        return fromPublicKey(parsePem(pem), algorithms);
    }

    public static JwtDecoder fromPublicKey(PublicKey key, Set<SignatureAlgorithm> algorithms) {
        JWK jwk = switch (key) {
            case RSAPublicKey rsa -> new RSAKey.Builder(rsa).build();
            case ECPublicKey ec -> new ECKey.Builder(Curve.forECParameterSpec(ec.getParams()), ec).build();
            default -> throw new IllegalArgumentException("buyer tokens need an RSA or EC key, not " + key.getAlgorithm());
        };
        return withoutTimestampCheck(NimbusJwtDecoder.withJwkSource(new ImmutableJWKSet<>(new JWKSet(jwk)))
                .jwsAlgorithms(accepted -> accepted.addAll(algorithms)).build());
    }

    /** A decoder for tokens signed by any key the issuer publishes at {@code uri} (fetched and cached by Nimbus). */
    public static JwtDecoder fromJwkSetUri(String uri, Set<SignatureAlgorithm> algorithms) {
        return withoutTimestampCheck(NimbusJwtDecoder.withJwkSetUri(uri)
                .jwsAlgorithms(accepted -> accepted.addAll(algorithms)).build());
    }

    private static JwtDecoder withoutTimestampCheck(NimbusJwtDecoder decoder) {
        decoder.setJwtValidator(jwt -> OAuth2TokenValidatorResult.success());
        return decoder;
    }

    static PublicKey parsePem(String pem) {
        String base64 = pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
        X509EncodedKeySpec spec = new X509EncodedKeySpec(Base64.getDecoder().decode(base64));
        for (String algorithm : new String[] {"RSA", "EC"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePublic(spec);
            } catch (GeneralSecurityException notThisKind) {
                // try the next kind
            }
        }
        throw new IllegalArgumentException("not an RSA or EC public key in PEM (-----BEGIN PUBLIC KEY-----)");
    }
}
