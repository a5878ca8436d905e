package io.flashsale.adapter.scheduling;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Relay names tell operators where a pending outbox entry sits: host, process, and a part that no restart repeats. */
public final class RelayNames {

    private static final int MAX_HOST_LENGTH = 40;

    private RelayNames() {
    }

    /** e.g. {@code shop-7-12345-9f2c1a}: host name, process id, random. */
    public static String forThisInstance() {
        return of(hostName(), ProcessHandle.current().pid(), ThreadLocalRandom.current().nextInt(1 << 24));
    }

    static String of(String host, long pid, int random) {
        String safeHost = host == null ? "" : host.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (safeHost.isEmpty()) {
            safeHost = "host";
        }
        if (safeHost.length() > MAX_HOST_LENGTH) {
            safeHost = safeHost.substring(0, MAX_HOST_LENGTH);
        }
        return safeHost + "-" + pid + "-" + HexFormat.of().toHexDigits(random).substring(2);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException unknown) {
            return System.getenv().getOrDefault("HOSTNAME", "host");
        }
    }
}
