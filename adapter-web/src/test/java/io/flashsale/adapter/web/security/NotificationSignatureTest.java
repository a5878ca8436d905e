package io.flashsale.adapter.web.security;

import io.flashsale.adapter.web.security.NotificationSignature.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NotificationSignatureTest {

    private static final String SECRET = "whsec-test-secret";
    private static final long NOW = 1_900_000_000L;
    private static final byte[] BODY = "{\"reservationId\":\"sale-1.0abc\",\"paymentReference\":\"pay-1\",\"paidAt\":\"2030-03-17T17:46:40Z\"}"
            .getBytes(StandardCharsets.UTF_8);

    private final NotificationSignature signature = new NotificationSignature(SECRET, Duration.ofMinutes(5),
            Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC));

    /** The referee: HMAC-SHA256 of "t.body" computed here, independently of the class under test. */
    private static String signed(long t, byte[] body, String secret) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
        return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    @Test
    void givenTheProvidersSignatureOfTheBody_thenValid() throws Exception {
        assertThat(signature.verify(signed(NOW, BODY, SECRET), BODY)).isEqualTo(Verdict.VALID);
        assertThat(signature.header(NOW, BODY)).isEqualTo(signed(NOW, BODY, SECRET));
    }

    @Test
    void givenOneByteOfTheBodyChanged_thenMismatch() throws Exception {
        byte[] tampered = BODY.clone();
        tampered[tampered.length - 3] = '1';

        assertThat(signature.verify(signed(NOW, BODY, SECRET), tampered)).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void givenAnotherSecret_thenMismatch() throws Exception {
        assertThat(signature.verify(signed(NOW, BODY, "another-secret"), BODY)).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void givenTheSignatureOfAnotherTimestampUnderThisOne_thenMismatch() throws Exception {
        String otherTime = signed(NOW - 10, BODY, SECRET).replace("t=" + (NOW - 10), "t=" + NOW);

        assertThat(signature.verify(otherTime, BODY)).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void givenTimestampsAtTheToleranceEdges_thenValidUpToFiveMinutesEitherWayAndStaleBeyond() throws Exception {
        assertThat(signature.verify(signed(NOW - 300, BODY, SECRET), BODY)).isEqualTo(Verdict.VALID);
        assertThat(signature.verify(signed(NOW + 300, BODY, SECRET), BODY)).isEqualTo(Verdict.VALID);
        assertThat(signature.verify(signed(NOW - 301, BODY, SECRET), BODY)).isEqualTo(Verdict.STALE);
        assertThat(signature.verify(signed(NOW + 301, BODY, SECRET), BODY)).isEqualTo(Verdict.STALE);
        assertThat(signature.verify(signed(0, BODY, SECRET), BODY)).isEqualTo(Verdict.STALE);
    }

    @Test
    void givenARotatedSecretSignedAlongside_thenOneMatchingV1IsEnough() throws Exception {
        String old = signed(NOW, BODY, "old-secret");
        String current = signed(NOW, BODY, SECRET);
        String both = old + "," + current.substring(current.indexOf("v1="));

        assertThat(signature.verify(both, BODY)).isEqualTo(Verdict.VALID);
        assertThat(signature.verify(old + ",v0=abc", BODY)).as("other schemes are ignored").isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void givenNoHeader_thenMissing() {
        assertThat(signature.verify(null, BODY)).isEqualTo(Verdict.MISSING);
        assertThat(signature.verify("  ", BODY)).isEqualTo(Verdict.MISSING);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "v1=00", "t=1900000000", "t=1900000000,v1=", "t=1900000000,v1=zz",
            "t=,v1=0000000000000000000000000000000000000000000000000000000000000000",
            "t=-5,v1=0000000000000000000000000000000000000000000000000000000000000000",
            "t=19e8,v1=0000000000000000000000000000000000000000000000000000000000000000",
            "t=1900000000000000000000,v1=0000000000000000000000000000000000000000000000000000000000000000",
            "t=1900000000,t=1900000000,v1=0000000000000000000000000000000000000000000000000000000000000000",
            "t=1900000000,v1=00000000000000000000000000000000000000000000000000000000000000",
            "t=1900000000,v1=000000000000000000000000000000000000000000000000000000000000000g",
            "t=1900000000;v1=0000000000000000000000000000000000000000000000000000000000000000",
            "t=1900000000,,v1=0000000000000000000000000000000000000000000000000000000000000000",
            "garbage"})
    void givenAMalformedHeader_thenMalformed(String header) {
        assertThat(signature.verify(header, BODY)).isEqualTo(Verdict.MALFORMED);
    }

    @Test
    void givenAnOverlongHeader_thenMalformedWithoutParsingIt() {
        assertThat(signature.verify("t=1900000000," + "x=1,".repeat(500) + "v1=00", BODY)).isEqualTo(Verdict.MALFORMED);
    }

    @Test
    void givenNoSecret_thenItCannotBeBuilt() {
        assertThatThrownBy(() -> new NotificationSignature(" ", Duration.ofMinutes(5), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
