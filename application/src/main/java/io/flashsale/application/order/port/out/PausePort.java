package io.flashsale.application.order.port.out;

import java.time.Duration;

/** Waits a while on the calling thread; a port so that tests of a job that waits need not sleep. */
@FunctionalInterface
public interface PausePort {

    /** The thread's own sleep. */
    PausePort SLEEP = duration -> Thread.sleep(duration.toMillis());

    void pause(Duration duration) throws InterruptedException;
}
