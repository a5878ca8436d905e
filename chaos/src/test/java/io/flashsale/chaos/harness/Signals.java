package io.flashsale.chaos.harness;

/** POSIX signals to a child process the harness started; test-support's {@link io.flashsale.testsupport.Signals}. */
public final class Signals {

    private Signals() {
    }

    public static void stop(long pid) {
        io.flashsale.testsupport.Signals.stop(pid);
    }

    public static void resume(long pid) {
        io.flashsale.testsupport.Signals.resume(pid);
    }
}
