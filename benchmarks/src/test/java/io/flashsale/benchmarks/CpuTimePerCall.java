package io.flashsale.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * An operation timed by the calling thread's CPU time: on a machine shared with other work, the wall clock (what JMH
 * reports) also counts the time the thread waited for a core; its CPU time does not. Warmed up for three times
 * {@code calls} calls, then nine rounds of {@code calls}; prints the median and the lowest round.
 */
public final class CpuTimePerCall {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int ROUNDS = 9;

    private CpuTimePerCall() {
    }

    public static void report(String name, int calls, Callable<?> operation) throws Exception {
        for (int i = 0; i < calls * 3; i++) {
            operation.call();
        }
        double[] perCall = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            long started = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < calls; i++) {
                operation.call();
            }
            perCall[round] = (THREADS.getCurrentThreadCpuTime() - started) / 1_000.0 / calls;
        }
        Arrays.sort(perCall);
        System.out.printf("%-40s median %9.3f µs CPU per call, lowest round %9.3f (%d rounds of %d)%n",
                name, perCall[ROUNDS / 2], perCall[0], ROUNDS, calls);
    }
}
