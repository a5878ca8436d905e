package io.flashsale.chaos.schedule;

/**
 * One fault of a schedule.
 *
 * @param atMillis    when it starts, from the start of the workload
 * @param forMillis   how long it lasts (a kill: how long the server stays down; a delay: how long connections lag)
 * @param instance    which service instance, for the service faults
 * @param delayMillis the lag per chunk of bytes, for the delay faults
 */
public record Fault(long atMillis, long forMillis, FaultKind kind, int instance, long delayMillis) {

    @Override
    public String toString() {
        return "%s@%dms+%dms%s".formatted(kind, atMillis, forMillis,
                switch (kind) {
                    case SERVICE_KILL, SERVICE_PAUSE -> " instance " + instance;
                    case DB_DELAY, REDIS_LINK_DELAY -> " lag " + delayMillis + "ms";
                    default -> "";
                });
    }
}
