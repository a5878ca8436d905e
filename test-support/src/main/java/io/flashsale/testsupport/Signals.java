package io.flashsale.testsupport;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** POSIX signals to a child process a test started: SIGSTOP freezes it mid-work, SIGCONT lets it go on. */
public final class Signals {

    private Signals() {
    }

    public static void stop(long pid) {
        send("-STOP", pid);
    }

    public static void resume(long pid) {
        send("-CONT", pid);
    }

    private static void send(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill " + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending " + signal, e);
        }
    }
}
