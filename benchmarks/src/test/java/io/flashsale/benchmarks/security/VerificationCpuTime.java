package io.flashsale.benchmarks.security;

import io.flashsale.benchmarks.CpuTimePerCall;
import io.flashsale.benchmarks.security.BuyerTokenVerificationBenchmark.Decoding;
import io.flashsale.benchmarks.security.BuyerTokenVerificationBenchmark.Remembered;
import io.flashsale.benchmarks.security.BuyerTokenVerificationBenchmark.Signing;

import java.security.GeneralSecurityException;

/**
 * {@link BuyerTokenVerificationBenchmark}'s operations timed by this thread's CPU time instead of the wall clock: on a
 * machine shared with other work, the wall clock counts the time the thread waited for a core, its CPU time does not.
 * Run: see docs/performance.md, "Buyer tokens".
 */
public final class VerificationCpuTime {

    private VerificationCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        BuyerTokenVerificationBenchmark benchmark = new BuyerTokenVerificationBenchmark();
        for (String algorithm : new String[] {"ES256", "RS256"}) {
            Decoding decoding = new Decoding();
            decoding.algorithm = algorithm;
            decoding.setUp();
            CpuTimePerCall.report("decode " + algorithm, 300, () -> benchmark.decode(decoding));
        }
        for (String algorithm : new String[] {"ES256", "RS256", "Ed25519"}) {
            Signing signing = new Signing();
            signing.algorithm = algorithm;
            signing.setUp();
            CpuTimePerCall.report("signatureOnly " + algorithm, 300,
                    () -> verified(benchmark.signatureOnly(signing)));
        }
        Remembered remembered = new Remembered();
        remembered.remembered = 200_000;
        remembered.setUp();
        CpuTimePerCall.report("cacheHit of 200,000", 50_000, () -> benchmark.cacheHit(remembered));
    }

    private static boolean verified(boolean valid) throws GeneralSecurityException {
        if (!valid) {
            throw new GeneralSecurityException("a signature of the benchmark did not verify");
        }
        return true;
    }
}
