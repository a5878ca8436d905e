package io.flashsale.benchmarks.security;

import io.flashsale.adapter.web.security.BuyerTokenDecoders;
import io.flashsale.adapter.web.security.VerifiedTokens;
import io.flashsale.adapter.web.security.VerifiedTokens.Verified;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.testsupport.TestBuyerTokens;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What a buyer's token costs the service (ADR 0088), one caller: the first verification through the decoder the
 * service uses ({@code decode}: Spring Security's Nimbus decoder, ES256 and RS256, the algorithms it accepts), the
 * bare signature check of the JDK ({@code signatureOnly}: the same two and Ed25519, which the decoder does not accept),
 * and a token seen before ({@code cacheHit}: its SHA-256 and a look-up among {@code remembered} tokens). Run: see
 * docs/performance.md, "Buyer tokens".
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BuyerTokenVerificationBenchmark {

    @State(Scope.Benchmark)
    public static class Decoding {

        @Param({"ES256", "RS256"})
        public String algorithm;

        JwtDecoder decoder;
        String token;

        @Setup
        public void setUp() {
            TestBuyerTokens issuer = "ES256".equals(algorithm) ? TestBuyerTokens.newEc() : TestBuyerTokens.newRsa();
            decoder = BuyerTokenDecoders.fromPublicKeyPem(issuer.publicKeyPem(),
                    Set.of(SignatureAlgorithm.ES256, SignatureAlgorithm.RS256));
            token = issuer.forBuyer("buyer-0000001");
        }
    }

    @State(Scope.Benchmark)
    public static class Signing {

        @Param({"ES256", "RS256", "Ed25519"})
        public String algorithm;

        Signature verifier;
        byte[] signingInput;
        byte[] signature;

        @Setup
        public void setUp() throws GeneralSecurityException {
            KeyPair keys = keys(algorithm);
            String jca = switch (algorithm) {
                case "ES256" -> "SHA256withECDSAinP1363Format";
                case "RS256" -> "SHA256withRSA";
                default -> "Ed25519";
            };
            String token = TestBuyerTokens.newEc().forBuyer("buyer-0000001");
            signingInput = token.substring(0, token.lastIndexOf('.')).getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(jca);
            signer.initSign(keys.getPrivate());
            signer.update(signingInput);
            signature = signer.sign();
            verifier = Signature.getInstance(jca);
            verifier.initVerify(keys.getPublic());
        }

        private static KeyPair keys(String algorithm) throws GeneralSecurityException {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(switch (algorithm) {
                case "ES256" -> "EC";
                case "RS256" -> "RSA";
                default -> "Ed25519";
            });
            switch (algorithm) {
                case "ES256" -> generator.initialize(new ECGenParameterSpec("secp256r1"));
                case "RS256" -> generator.initialize(2048);
                default -> { }
            }
            return generator.generateKeyPair();
        }
    }

    @State(Scope.Benchmark)
    public static class Remembered {

        @Param({"200000"})
        public int remembered;

        VerifiedTokens tokens;
        String[] known;
        int next;

        @Setup
        public void setUp() {
            tokens = new VerifiedTokens(remembered, Clock.systemUTC(), Duration.ofSeconds(30));
            known = new String[remembered];
            // Tokens of a real one's length and shape (ES256, 86 characters of signature), without signing each.
            String template = TestBuyerTokens.newEc().forBuyer("buyer-0000001");
            Instant expiresAt = Instant.now().plus(Duration.ofHours(1));
            for (int i = 0; i < remembered; i++) {
                known[i] = template.substring(0, template.length() - 12) + String.format("%012d", i);
                tokens.remember(known[i], new Verified(new BuyerId("buyer-" + i), expiresAt));
            }
        }

        String nextToken() {
            int at = next++;
            if (next == known.length) {
                next = 0;
            }
            return known[at];
        }
    }

    @Benchmark
    public Jwt decode(Decoding state) {
        return state.decoder.decode(state.token);
    }

    @Benchmark
    public boolean signatureOnly(Signing state) throws GeneralSecurityException {
        state.verifier.update(state.signingInput);
        return state.verifier.verify(state.signature);
    }

    @Benchmark
    public Verified cacheHit(Remembered state) {
        return state.tokens.get(state.nextToken());
    }
}
