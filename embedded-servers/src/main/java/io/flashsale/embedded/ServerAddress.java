package io.flashsale.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/** A host and port that a server may be listening on; {@link #answers} tells a running server from none. */
public record ServerAddress(String host, int port) {

    /** Where the embedded servers listen: never reachable from another machine. */
    public static final String LOOPBACK = "127.0.0.1";

    public ServerAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1-65535, was " + port);
        }
    }

    /** {@code host:port}, for example {@code 127.0.0.1:6379}. */
    public static ServerAddress parse(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostAndPort.length() - 1) {
            throw new IllegalArgumentException("expected host:port, was " + hostAndPort);
        }
        return new ServerAddress(hostAndPort.substring(0, colon).trim(),
                Integer.parseInt(hostAndPort.substring(colon + 1).trim()));
    }

    /** Whether something accepts a TCP connection here within the timeout; never throws. */
    public boolean answers(Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) Math.max(1, timeout.toMillis()));
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
