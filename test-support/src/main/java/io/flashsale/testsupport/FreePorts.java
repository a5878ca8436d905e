package io.flashsale.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A port a test's own server will listen on later. An ephemeral port ({@code new ServerSocket(0)}) is free only for
 * the moment it is asked: between the question and the server's start, the kernel may hand the same number to an
 * outgoing connection or to another listener on port 0 (an embedded broker, Tomcat), and the server's bind fails
 * (seen in CI: {@code redis-server ... bind: Address already in use}). So the ports come from below the kernel's
 * ephemeral range, where the kernel hands out nothing on its own; each is checked bindable and given out once per
 * JVM, and the random start keeps two forks from walking the same sequence.
 */
public final class FreePorts {

    private static final int LOWEST = 20_000;
    private static final int ATTEMPTS = 500;
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /** A port no socket is bound to now, below the ephemeral range, not given out before by this JVM. */
    public static int next() {
        int highest = ephemeralRangeStart() - 1;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = random.nextInt(LOWEST, highest + 1);
            if (GIVEN.add(port)) {
                if (bindable(port)) {
                    return port;
                }
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST + " and " + highest + " after "
                + ATTEMPTS + " attempts");
    }

    private static boolean bindable(int port) {
        for (InetAddress address : List.of(InetAddress.getLoopbackAddress(), anyAddress())) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress(address, port));
            } catch (IOException taken) {
                return false;
            }
        }
        return true;
    }

    private static InetAddress anyAddress() {
        return new InetSocketAddress(0).getAddress();
    }

    /** The first port of {@code net.ipv4.ip_local_port_range} (Linux), else the IANA range's 49152. */
    static int ephemeralRangeStart() {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        try {
            int first = Integer.parseInt(Files.readString(range).trim().split("\\s+")[0]);
            return Math.max(LOWEST + 1_000, first);
        } catch (IOException | RuntimeException unreadable) {
            return 49_152;
        }
    }
}
