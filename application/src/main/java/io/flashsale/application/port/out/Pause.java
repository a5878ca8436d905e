package io.flashsale.application.port.out;

import java.time.Duration;

/** Waits a while on the calling thread; a port so that tests of a job that waits need not sleep. */
@FunctionalInterface
public interface Pause {

    /** The thread's own sleep. */
    Pause SLEEP = duration -> Thread.sleep(duration.toMillis());

    void pause(Duration duration) throws InterruptedException;
}
