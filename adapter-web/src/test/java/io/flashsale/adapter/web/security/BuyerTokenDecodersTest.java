package io.flashsale.adapter.web.security;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpServer;
import io.flashsale.testsupport.TestBuyerTokens;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtDecoder;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPublicKey;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class BuyerTokenDecodersTest {

    private static final Set<SignatureAlgorithm> ACCEPTED = Set.of(SignatureAlgorithm.RS256, SignatureAlgorithm.ES256);

    @Test
    void givenAnIssuersJwkSetUri_whenItsTokensAreDecoded_thenItsKeysVerifyThem_andNoOtherKeyDoes() throws IOException {
        TestBuyerTokens issuer = TestBuyerTokens.newEc();
        ECPublicKey key = (ECPublicKey) BuyerTokenDecoders.parsePem(issuer.publicKeyPem());
        byte[] jwks = new JWKSet(new ECKey.Builder(Curve.P_256, key).keyID("buyers-1").build()).toString()
                .getBytes(StandardCharsets.UTF_8);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/jwks.json", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, jwks.length);
            exchange.getResponseBody().write(jwks);
            exchange.close();
        });
        server.start();
        try {
            JwtDecoder decoder = BuyerTokenDecoders.fromJwkSetUri(
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json", ACCEPTED);

            assertThat(decoder.decode(issuer.forBuyer("alice")).getSubject()).isEqualTo("alice");
            assertThatThrownBy(() -> decoder.decode(TestBuyerTokens.newEc().forBuyer("alice")))
                    .isInstanceOf(BadJwtException.class);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void givenAPemThatIsNoPublicKey_whenParsed_thenRefused() {
        assertThatThrownBy(() -> BuyerTokenDecoders.fromPublicKeyPem(
                "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----", ACCEPTED))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
