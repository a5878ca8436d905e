package io.flashsale.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A 3-master Redis Cluster of this machine's {@code redis-server}, on free ports below 55536 (a node also listens on
 * port + 10000), made with {@code redis-cli --cluster create ... --cluster-replicas 0}. Started once per test JVM on
 * first use and stopped when the JVM exits; nothing is persisted.
 */
final class LocalRedisCluster {

    private static final int MASTERS = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private static RedisClusterEndpoint endpoint;

    private LocalRedisCluster() {
    }

    static synchronized RedisClusterEndpoint get() {
        if (endpoint == null) {
            endpoint = start();
        }
        return endpoint;
    }

    private static RedisClusterEndpoint start() {
        try {
            Path dir = Files.createTempDirectory("flashsale-redis-cluster");
            List<Process> nodes = new ArrayList<>();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> nodes.forEach(Process::destroy)));
            List<String> addresses = new ArrayList<>();
            for (int port : freePorts()) {
                Path nodeDir = Files.createDirectories(dir.resolve(Integer.toString(port)));
                nodes.add(new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes", "--cluster-config-file", nodeDir.resolve("nodes.conf").toString(),
                        "--dir", nodeDir.toString(), "--save", "", "--appendonly", "no")
                        .redirectErrorStream(true).redirectOutput(nodeDir.resolve("redis.log").toFile()).start());
                addresses.add("127.0.0.1:" + port);
            }
            for (String address : addresses) {
                awaitAnswer(address, "PING", "PONG");
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            create.addAll(addresses);
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            run(create);
            for (String address : addresses) {
                awaitAnswer(address, "CLUSTER INFO", "cluster_state:ok");
            }
            System.out.println("[flashsale-tests] Redis Cluster on " + addresses);
            return new RedisClusterEndpoint(addresses);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a local Redis Cluster (is redis-server installed?)", e);
        }
    }

    /** Ports below 55536 (so that port + 10000, the cluster bus, is a port too), both free now. */
    private static List<Integer> freePorts() {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < MASTERS) {
            int candidate = ThreadLocalRandom.current().nextInt(20_000, 45_000);
            if (!ports.contains(candidate) && free(candidate) && free(candidate + 10_000)) {
                ports.add(candidate);
            }
        }
        return ports;
    }

    private static boolean free(int port) {
        try (ServerSocket ignored = new ServerSocket(port)) {
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    private static void awaitAnswer(String address, String command, String expected) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String host = address.substring(0, address.indexOf(':'));
        String port = address.substring(address.indexOf(':') + 1);
        List<String> cli = new ArrayList<>(List.of("redis-cli", "-h", host, "-p", port));
        cli.addAll(List.of(command.split(" ")));
        while (System.nanoTime() < deadline) {
            try {
                if (run(cli).contains(expected)) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // the node is still starting
            }
            sleep();
        }
        throw new IllegalStateException(address + " did not answer " + command + " with " + expected);
    }

    private static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
