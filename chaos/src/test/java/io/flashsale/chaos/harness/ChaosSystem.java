package io.flashsale.chaos.harness;

import io.flashsale.testsupport.MariaDbEndpoint;
import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.ServiceProcess;
import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.testsupport.TcpProxy;
import io.flashsale.testsupport.TestServices;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The system under test with every part the harness may hurt: its own Redis (AOF everysec) and Kafka broker as
 * child processes, the service's packaged jar as one or more child processes, and TCP proxies between the service
 * and Redis and between the service and the shared MariaDB (a random database of this run). Shared by a batch of
 * schedules: each schedule sells a fresh sale; only what a fault killed is started again. {@link #onRedisCluster}
 * builds the same system on a Redis Cluster of 3 masters with a replica each instead (no proxy to Redis).
 */
public final class ChaosSystem implements AutoCloseable {

    public static final String ADMIN_TOKEN = "chaos-admin-token-0123456789abcdef";
    // Two instances starting at once took over three minutes at a load average of 45 on this 2-core machine.
    private static final Duration START_PATIENCE = Duration.ofMinutes(6);
    private static final List<String> SERVICE_JVM = List.of("-Xms128m", "-Xmx384m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=2");

    private final Path workDirectory;
    private final RedisUnderTest redis;
    private final KafkaBrokerProcess broker;
    private final TcpProxy databaseLink;
    private final String database;
    private final String databaseUrl;
    private final List<Instance> instances = new ArrayList<>();
    private final ConsumerLag consumerLag;
    private int lives;

    /** One service process and its port; a restart keeps the port, so clients find it again. */
    private final class Instance {
        final Map<String, String> settings;
        volatile ServiceProcess process;
        volatile boolean frozen;

        Instance(Map<String, String> settings) {
            this.settings = settings;
        }

        int port() {
            return Integer.parseInt(settings.get("server.port"));
        }

        int managementPort() {
            return Integer.parseInt(settings.get("management.server.port"));
        }

        /** Every process this instance ever started: closing the system kills each that is still alive. */
        final List<ServiceProcess> lives = new java.util.concurrent.CopyOnWriteArrayList<>();

        synchronized ServiceProcess start() {
            ServiceProcess started = ServiceProcess.start(ServiceProcess.runnableJar(), SERVICE_JVM, settings,
                    workDirectory.resolve("service-" + port() + "-life-" + nextLife() + ".log"));
            lives.add(started);
            process = started;
            return started;
        }

        /** Starts it again unless a live process already serves (or is starting on) this port. */
        synchronized ServiceProcess startIfDead() {
            return isAlive(process) ? process : start();
        }
    }

    /** On one Redis behind a proxy. */
    public ChaosSystem(Path workDirectory, int instanceCount) {
        this(workDirectory, instanceCount, ProxiedRedis::new);
    }

    /** On a Redis Cluster of 3 masters with a replica each, the faults' {@link #redisCluster()}. */
    public static ChaosSystem onRedisCluster(Path workDirectory, int instanceCount) {
        return new ChaosSystem(workDirectory, instanceCount, ReplicatedRedisCluster::new);
    }

    private ChaosSystem(Path workDirectory, int instanceCount, Function<Path, RedisUnderTest> redisOf) {
        this.workDirectory = workDirectory;
        String run = "chaos-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        MariaDbEndpoint mariadb = TestServices.mariadb();
        this.database = mariadb.freshDatabase("flashsale_chaos");
        this.databaseUrl = mariadb.jdbcUrl(database);
        this.redis = redisOf.apply(workDirectory);
        this.broker = new KafkaBrokerProcess(workDirectory);
        this.databaseLink = new TcpProxy(mariadb.port());
        String proxiedUrl = databaseUrl.replace(mariadb.host() + ":" + mariadb.port() + "/",
                "127.0.0.1:" + databaseLink.port() + "/");
        for (int i = 0; i < instanceCount; i++) {
            instances.add(new Instance(settings(run, proxiedUrl, mariadb)));
        }
        this.consumerLag = new ConsumerLag(broker.bootstrapServers(), topic(run), group(run));
        // A test JVM that ends early (a fork timeout, Ctrl-C) still takes its servers with it.
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(this::close));
        instances.forEach(Instance::start);
        instances.forEach(instance -> instance.process.awaitReady(START_PATIENCE));
    }

    private Map<String, String> settings(String run, String proxiedUrl, MariaDbEndpoint mariadb) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("server.port", Integer.toString(ServiceProcess.freePort()));
        properties.put("management.server.port", Integer.toString(ServiceProcess.freePort()));
        properties.put("spring.datasource.url", proxiedUrl);
        properties.put("spring.datasource.username", mariadb.username());
        properties.put("spring.datasource.password", mariadb.password());
        properties.putAll(redis.serviceSettings());
        properties.put("spring.kafka.bootstrap-servers", broker.bootstrapServers());
        properties.put("flashsale.embedded.enabled", "false");
        properties.put("flashsale.kafka.embedded.enabled", "false");
        properties.put("flashsale.kafka.topic", topic(run));
        properties.put("flashsale.kafka.consumer.group-id", group(run));
        properties.put("flashsale.redis.outbox-registry", "fs:outbox:" + run);
        properties.put("flashsale.admin.token", ADMIN_TOKEN);
        properties.put(TestBuyerTokens.PUBLIC_KEY_LOCATION_PROPERTY, TestBuyerTokens.rsa().publicKeyLocation());
        // The campaign's buyers pay for their own orders.
        properties.put("flashsale.payment.buyer-confirms", "true");
        // Quick hand-overs after a kill: the dead member's partitions and pending relay entries move on in seconds.
        properties.put("spring.kafka.consumer.properties[session.timeout.ms]", "6000");
        properties.put("spring.kafka.consumer.properties[heartbeat.interval.ms]", "1000");
        properties.put("flashsale.relay.stale-after", "2s");
        // A short run: "in flight" and "lost" are told apart after two seconds, not a minute.
        properties.put("flashsale.reconciliation.grace", "2s");
        // The campaign checks that the service converges by itself; a repair held for a person (ADR 85: a Redis killed
        // under load may lose more than the default 10 units of writes) has no person here to approve it.
        properties.put("flashsale.reconciliation.auto-repair-limit", Long.toString(Long.MAX_VALUE));
        // A return a fault interrupted is retried within 2 s, not 5 s: each round settles that much sooner.
        properties.put("flashsale.lifecycle.restore-sweep-interval", "2s");
        properties.put("logging.level.root", "WARN");
        properties.put("logging.level.io.flashsale", "INFO");
        return properties;
    }

    private static String topic(String run) {
        return "flashsale." + run + ".reservations";
    }

    private static String group(String run) {
        return "flashsale-" + run;
    }

    /** The order consumers' lag on the reservations topic, read from the broker. */
    public ConsumerLag consumerLag() {
        return consumerLag;
    }

    private synchronized int nextLife() {
        return ++lives;
    }

    public int instanceCount() {
        return instances.size();
    }

    public int port(int instance) {
        return instances.get(instance).port();
    }

    /** The instance's actuator port: readiness open, the rest behind the admin token. */
    public int managementPort(int instance) {
        return instances.get(instance).managementPort();
    }

    /** Direct JDBC to the run's database, never through the proxy: the checker reads the truth. */
    public String databaseUrl() {
        return databaseUrl;
    }

    public String database() {
        return database;
    }

    public RedisServerProcess redis() {
        return proxiedRedis().server();
    }

    public ReplicatedRedisCluster redisCluster() {
        if (redis instanceof ReplicatedRedisCluster cluster) {
            return cluster;
        }
        throw new IllegalStateException("this system runs one Redis, not a cluster");
    }

    private ProxiedRedis proxiedRedis() {
        if (redis instanceof ProxiedRedis proxied) {
            return proxied;
        }
        throw new IllegalStateException("this system runs a Redis Cluster, which no proxy fronts");
    }

    public KafkaBrokerProcess broker() {
        return broker;
    }

    public TcpProxy redisLink() {
        return proxiedRedis().link();
    }

    public TcpProxy databaseLink() {
        return databaseLink;
    }

    public void killService(int instance) {
        instances.get(instance).process.kill();
    }

    /** Starts a killed instance again in the background; {@link #heal} waits for it. */
    public void restartService(int instance) {
        ServiceProcess started = instances.get(instance).startIfDead();
        CompletableFuture.runAsync(() -> started.awaitReady(START_PATIENCE));
    }

    public void freezeService(int instance) {
        Instance target = instances.get(instance);
        target.frozen = true;
        Signals.stop(target.process.pid());
    }

    public void thawService(int instance) {
        Instance target = instances.get(instance);
        Signals.resume(target.process.pid());
        target.frozen = false;
    }

    /**
     * After a schedule: every link healed, every frozen process thawed, every killed server started again, and each
     * service instance answering its health check.
     */
    public void heal() {
        databaseLink.heal();
        redis.heal();
        broker.thawQuietly();
        broker.startAgain();
        for (Instance instance : instances) {
            if (instance.frozen) {
                Signals.resume(instance.process.pid());
                instance.frozen = false;
            }
        }
        for (Instance instance : instances) {
            instance.startIfDead().awaitReady(START_PATIENCE);
        }
    }

    private static boolean isAlive(ServiceProcess process) {
        return ProcessHandle.of(process.pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public synchronized void close() {
        for (Instance instance : instances) {
            for (ServiceProcess life : instance.lives) {
                if (isAlive(life)) {
                    Signals.resume(life.pid());
                    life.close();
                }
            }
        }
        consumerLag.close();
        databaseLink.close();
        broker.close();
        redis.close();
    }
}
