package io.flashsale.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-JVM TCP proxy between a client (the service, a test's connection pool) and one server, the network the faults
 * act on (this machine has no tc or iptables): {@link #cut} resets every open connection and refuses new ones for a while, {@link #delay} holds each
 * chunk of bytes, {@link #blackHole} stops forwarding without closing anything (a partition: the peer's bytes wait,
 * as TCP would retransmit them, and flow again when it heals). One virtual thread per direction per connection.
 */
public final class TcpProxy implements AutoCloseable {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final long HOLD_POLL_MILLIS = 5;

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile long delayMillis;
    private volatile boolean blackHoled;
    private volatile long refuseUntilNanos;

    public TcpProxy(int targetPort) {
        this("127.0.0.1", targetPort);
    }

    public TcpProxy(String targetHost, int targetPort) {
        this.target = new InetSocketAddress(targetHost, targetPort);
        try {
            this.server = new ServerSocket(0, 200, java.net.InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the proxy's port", e);
        }
        Thread.ofPlatform().daemon().name("tcp-proxy-" + server.getLocalPort()).start(this::acceptLoop);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Resets every connection now and refuses new ones for {@code outage}. */
    public void cut(Duration outage) {
        refuseUntilNanos = System.nanoTime() + outage.toNanos();
        for (Socket socket : open) {
            reset(socket);
        }
    }

    public void delay(Duration each) {
        delayMillis = each.toMillis();
    }

    public void blackHole(boolean on) {
        blackHoled = on;
    }

    /** Back to a healthy network. */
    public void heal() {
        delayMillis = 0;
        blackHoled = false;
        refuseUntilNanos = 0;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException closed) {
                return;
            }
            if (System.nanoTime() < refuseUntilNanos) {
                reset(client);
                continue;
            }
            Thread.ofVirtual().start(() -> connect(client));
        }
    }

    private void connect(Socket client) {
        Socket upstream = new Socket();
        try {
            upstream.connect(target, (int) CONNECT_TIMEOUT.toMillis());
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
        } catch (IOException e) {
            reset(client);
            close(upstream);
            return;
        }
        open.add(client);
        open.add(upstream);
        Thread.ofVirtual().start(() -> pump(client, upstream));
        Thread.ofVirtual().start(() -> pump(upstream, client));
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int read;
            while ((read = in.read(buffer)) >= 0) {
                while (blackHoled && !from.isClosed()) {
                    Thread.sleep(HOLD_POLL_MILLIS);
                }
                long pause = delayMillis;
                if (pause > 0) {
                    Thread.sleep(pause);
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException | InterruptedException ended) {
            // The connection ends both ways: cut, closed by a peer, or the proxy closes.
        } finally {
            close(from);
            close(to);
        }
    }

    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (SocketException alreadyClosed) {
            // Nothing to reset.
        }
        close(socket);
    }

    private void close(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing is best effort.
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // Closing is best effort.
        }
        for (Socket socket : open) {
            close(socket);
        }
    }
}
