package io.flashsale.bootstrap.pipeline;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder in the test JVM between the service and a server, the only way to take a server "down"
 * here without owning its process: {@link #cut()} resets every open connection and refuses new ones until
 * {@link #restore()}.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;
    private volatile boolean closed;

    private TcpProxy(ServerSocket server, String targetHost, int targetPort) {
        this.server = server;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    static TcpProxy to(String host, int port) {
        try {
            var proxy = new TcpProxy(new ServerSocket(0, 100, InetAddress.getLoopbackAddress()), host, port);
            Thread.ofPlatform().daemon().name("tcp-proxy-accept-" + port).start(proxy::acceptLoop);
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the proxy port", e);
        }
    }

    int port() {
        return server.getLocalPort();
    }

    void cut() {
        cut = true;
        open.forEach(this::reset);
    }

    void restore() {
        cut = false;
    }

    @Override
    public void close() {
        closed = true;
        cut();
        try {
            server.close();
        } catch (IOException ignored) {
            // Closing anyway.
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                continue;
            }
            if (cut) {
                reset(client);
                continue;
            }
            connect(client);
        }
    }

    private void connect(Socket client) {
        Socket upstream;
        try {
            upstream = new Socket(targetHost, targetPort);
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
        } catch (IOException e) {
            reset(client);
            return;
        }
        open.add(client);
        open.add(upstream);
        // A cut that came while this pair was being connected must not miss it.
        if (cut) {
            reset(client);
            reset(upstream);
            return;
        }
        pump(client, upstream);
        pump(upstream, client);
    }

    private void pump(Socket from, Socket to) {
        Thread.ofPlatform().daemon().name("tcp-proxy-pump").start(() -> {
            byte[] buffer = new byte[16 * 1024];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException connectionGone) {
                // Either side closed or was reset: the pair ends.
            } finally {
                reset(from);
                reset(to);
            }
        });
    }

    private void reset(Socket socket) {
        open.remove(socket);
        try {
            // Linger 0: the peer sees a reset at once, as when a server dies, not an orderly close.
            socket.setSoLinger(true, 0);
        } catch (IOException alreadyClosed) {
            // Closed already; nothing to reset.
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closed already.
        }
    }
}
