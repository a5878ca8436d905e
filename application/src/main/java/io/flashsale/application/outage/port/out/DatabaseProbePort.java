package io.flashsale.application.outage.port.out;

/**
 * Whether the database of record answers now: the cheapest question it can be asked. The order consumer holds its
 * partitions while the database is out of reach and asks this before it takes them up again (ADR 78).
 */
public interface DatabaseProbePort {

    /** No probe: the next delivery itself is the question (a consumer with no database of its own to ask). */
    DatabaseProbePort UNPROBED = () -> true;

    /** True when the database answered a trivial statement within its usual wait; false on any failure. */
    boolean answers();
}
