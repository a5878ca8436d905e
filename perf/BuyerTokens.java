import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.stream.IntStream;

/**
 * The load harness's buyer token issuer (ADR 80): an ES256 (P-256) key pair of one harness run and COUNT tokens, one
 * buyer each ({@code hb0}, {@code hb1}, ...), signed before any measurement so that a request's cost is the service's
 * verification, never the client's signing.
 *
 * <pre>java perf/BuyerTokens.java DIR COUNT [HOURS]</pre>
 * writes DIR/buyer-issuer.pem (the public key: {@code --spring.security.oauth2.resourceserver.jwt.public-key-location=
 * file:DIR/buyer-issuer.pem}) and DIR/buyer-tokens.txt (one token a line, without its constant header, which is
 * DIR/buyer-token-header.txt, so the wrk scripts hold less). The private key never leaves this process.
 */
public class BuyerTokens {

    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

    public static void main(String[] args) throws IOException, GeneralSecurityException {
        Path directory = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        long expires = Instant.now().getEpochSecond() + 3600L * (args.length > 2 ? Long.parseLong(args[2]) : 12);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();
        Files.writeString(directory.resolve("buyer-issuer.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n", StandardCharsets.US_ASCII);
        String header = URL.encodeToString("{\"alg\":\"ES256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.US_ASCII));
        Files.writeString(directory.resolve("buyer-token-header.txt"), header + ".", StandardCharsets.US_ASCII);
        String[] tokens = IntStream.range(0, count).parallel()
                .mapToObj(i -> rest(header, "{\"sub\":\"hb" + i + "\",\"exp\":" + expires + "}", keys.getPrivate()))
                .toArray(String[]::new);
        try (BufferedWriter out = Files.newBufferedWriter(directory.resolve("buyer-tokens.txt"),
                StandardCharsets.US_ASCII)) {
            for (String token : tokens) {
                out.write(token);
                out.write('\n');
            }
        }
    }

    /** The token after its header: claims and signature. */
    private static String rest(String header, String claims, PrivateKey key) {
        String payload = URL.encodeToString(claims.getBytes(StandardCharsets.US_ASCII));
        try {
            Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format");
            signature.initSign(key);
            signature.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
            return payload + "." + URL.encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
