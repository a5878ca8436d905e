package io.flashsale.benchmarks.risk;

import io.flashsale.benchmarks.CpuTimePerCall;

/**
 * {@link RiskControlBenchmark}'s attempts timed by this thread's CPU time ({@link CpuTimePerCall}), for a machine
 * shared with other work. Run: see docs/performance.md, "The risk control".
 */
public final class RiskControlCpuTime {

    private RiskControlCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        for (int addressBlocks : new int[] {10, 1_000}) {
            for (int maxBuyersPerDevice : new int[] {0, 3}) {
                RiskControlBenchmark benchmark = new RiskControlBenchmark();
                benchmark.entries = 10_000;
                benchmark.addressBlocks = addressBlocks;
                benchmark.maxBuyersPerDevice = maxBuyersPerDevice;
                benchmark.setUp();
                CpuTimePerCall.report("10,000 entries, " + addressBlocks + " address blocks, device limit "
                        + maxBuyersPerDevice, 50_000, benchmark::refusal);
            }
        }
    }
}
