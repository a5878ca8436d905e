package io.flashsale.benchmarks.risk;

import io.flashsale.adapter.redis.local.CaffeineDeviceSightings;
import io.flashsale.application.blocklist.port.out.BlocklistPort;
import io.flashsale.application.reservation.model.AttemptOrigin;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.service.RiskControl;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.BlocklistChange;
import io.flashsale.domain.risk.DeviceId;
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

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The risk control asked before the reserve script on every attempt (ADR 0081), one caller: a blocklist of
 * {@code entries} (buyers and devices, and {@code addressBlocks} of them address blocks, which are walked one by one),
 * and the device limit off ({@code maxBuyersPerDevice} 0) or on (3 buyers per device, 100,000 devices in turn). Every
 * attempt is one the list lets through, the common case, and the one that asks every check. Run: see
 * docs/performance.md, "The risk control".
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RiskControlBenchmark {

    private static final int ATTEMPTS = 100_000;
    private static final Instant LISTED_AT = Instant.parse("2026-12-05T00:00:00Z");

    @Param({"10000"})
    public int entries;

    @Param({"10", "1000"})
    public int addressBlocks;

    @Param({"0", "3"})
    public int maxBuyersPerDevice;

    private RiskControl risk;
    private ReserveStockCommand[] attempts;
    private int next;

    @Setup
    public void setUp() {
        List<BlockEntry> listed = new ArrayList<>(entries);
        for (int i = 0; i < addressBlocks; i++) {
            listed.add(entry(BlockKind.ADDRESS, "10." + (i >> 8 & 0xff) + "." + (i & 0xff) + ".0/24"));
        }
        for (int i = addressBlocks; i < entries; i++) {
            listed.add(entry(i % 2 == 0 ? BlockKind.BUYER : BlockKind.DEVICE, "listed-" + i));
        }
        risk = new RiskControl(new Listed(listed),
                maxBuyersPerDevice == 0 ? null : new CaffeineDeviceSightings(Duration.ofMinutes(10), 1_000_000),
                maxBuyersPerDevice);
        if (!risk.refresh() || risk.held() != entries) {
            throw new IllegalStateException("the blocklist was not read");
        }
        attempts = new ReserveStockCommand[ATTEMPTS];
        for (int i = 0; i < ATTEMPTS; i++) {
            attempts[i] = new ReserveStockCommand(new ActivityId("sale-1"), new BuyerId("buyer-" + i), null,
                    List.of(new ReservationLine(new SkuId("sku-1"), 1)), null,
                    new AttemptOrigin("192.168." + (i >> 8 & 0xff) + "." + (i & 0xff), new DeviceId("device-" + i)));
        }
    }

    @Benchmark
    public Optional<ReservationOutcome> refusal() {
        ReserveStockCommand attempt = attempts[next];
        next = next + 1 == ATTEMPTS ? 0 : next + 1;
        return risk.refusal(attempt);
    }

    private static BlockEntry entry(BlockKind kind, String value) {
        return new BlockEntry(kind, value, "benchmark", "benchmark", LISTED_AT);
    }

    /** The list as the database would answer it. */
    private record Listed(List<BlockEntry> entries) implements BlocklistPort {

        @Override
        public boolean add(BlockEntry entry) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean remove(BlockKind kind, String value, String operator, Instant at) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<BlocklistChange> changes() {
            throw new UnsupportedOperationException();
        }
    }
}
