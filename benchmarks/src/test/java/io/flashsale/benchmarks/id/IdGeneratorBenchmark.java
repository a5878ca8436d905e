package io.flashsale.benchmarks.id;

import io.flashsale.application.shared.id.UuidV7IdGenerator;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The reservation id on the hot path (one per accepted attempt), before and after ADR 0082 in one run: the previous
 * generator ({@code threadLocalRandom62}) and the service's ({@code secureRandom74}), by one caller and by two at once
 * (this machine's cores). Run: see docs/performance.md, "Reservation ids".
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class IdGeneratorBenchmark {

    @Param({"threadLocalRandom62", "secureRandom74"})
    public String generator;

    private Supplier<String> ids;

    @Setup
    public void setUp() {
        Clock clock = Clock.systemUTC();
        ids = switch (generator) {
            case "threadLocalRandom62" -> new ThreadLocalRandomUuidV7(clock)::next;
            case "secureRandom74" -> new UuidV7IdGenerator(clock)::next;
            default -> throw new IllegalArgumentException(generator);
        };
    }

    @Benchmark
    @Threads(1)
    public String oneCaller() {
        return ids.get();
    }

    @Benchmark
    @Threads(2)
    public String twoCallers() {
        return ids.get();
    }
}
