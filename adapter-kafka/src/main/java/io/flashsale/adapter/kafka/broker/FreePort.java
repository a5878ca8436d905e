package io.flashsale.adapter.kafka.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Asks the OS for a free port: the controller's address goes into the config before the broker binds it. */
final class FreePort {

    private FreePort() {
    }

    static int on(String host) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + host, e);
        }
    }
}
