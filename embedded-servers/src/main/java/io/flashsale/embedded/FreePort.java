package io.flashsale.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

final class FreePort {

    private FreePort() {
    }

    /** {@code requested}, or one the OS has free when it is 0. */
    static int orAny(int requested) {
        if (requested != 0) {
            return requested;
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on the loopback address", e);
        }
    }
}
