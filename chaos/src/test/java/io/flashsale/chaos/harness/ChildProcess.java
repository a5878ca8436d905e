package io.flashsale.chaos.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A server the harness owns as a child process: started, SIGKILLed, frozen and thawed by pid. */
final class ChildProcess {

    private final Process process;

    private ChildProcess(Process process) {
        this.process = process;
    }

    static ChildProcess start(List<String> command, Path log) {
        try {
            return new ChildProcess(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.getFirst(), e);
        }
    }

    /** Waits until something accepts connections on the port; fails if the process died or time ran out. */
    ChildProcess awaitListening(int port, Duration patience, Path log) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("process exited with " + process.exitValue() + "; see " + log);
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return this;
            } catch (IOException notYet) {
                sleep(Duration.ofMillis(50));
            }
        }
        throw new IllegalStateException("nothing listened on " + port + " within " + patience + "; see " + log);
    }

    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("process " + process.pid() + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + process.pid(), e);
        }
    }

    /** SIGCONT first: a frozen process cannot act on SIGKILL's aftermath otherwise (the kernel kills it anyway). */
    void killEvenIfFrozen() {
        if (process.isAlive()) {
            Signals.resume(process.pid());
            kill();
        }
    }

    void freeze() {
        Signals.stop(process.pid());
    }

    void thaw() {
        Signals.resume(process.pid());
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    static void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
