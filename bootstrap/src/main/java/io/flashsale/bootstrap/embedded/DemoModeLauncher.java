package io.flashsale.bootstrap.embedded;

import io.flashsale.bootstrap.embedded.ServerSource.Configured;
import io.flashsale.bootstrap.embedded.ServerSource.Embedded;
import io.flashsale.bootstrap.embedded.ServerSource.Local;
import io.flashsale.adapter.web.security.demo.DemoTokenIssuer;
import io.flashsale.embedded.EmbeddedMariaDb;
import io.flashsale.embedded.EmbeddedRedis;
import io.flashsale.embedded.ServerAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Makes the run command work on a machine with only a JDK. For Redis and the database in turn: a configured address
 * is used (and must answer). In demo mode ({@code flashsale.embedded.enabled}, set by the {@code demo} profile) a
 * server that is not configured is the probed default address if it answers, else an embedded one started in-process,
 * and a loud banner says so; outside demo mode it is a start-up error naming the property (ADR 80). Demo mode also
 * gets a buyer token issuer of its own ({@link DemoTokenIssuer}), never present otherwise.
 *
 * <p>Like {@code EmbeddedKafkaLauncher}, a bean factory post-processor: the environment is complete (a test's dynamic
 * properties included) and no bean exists yet, so the addresses it adds are the ones the clients are built with;
 * made first, it is destroyed last, after the clients that use its servers.
 */
public final class DemoModeLauncher implements BeanFactoryPostProcessor, DisposableBean {

    static final String PROPERTY_SOURCE_NAME = "flashsaleDemoMode";
    static final String REDIS_HOST = "spring.data.redis.host";
    static final String REDIS_PORT = "spring.data.redis.port";
    static final String REDIS_CLUSTER_NODES = "spring.data.redis.cluster.nodes";
    static final String DATASOURCE_URL = "spring.datasource.url";
    static final String DATABASE = "flashsale";
    /** Demo mode's buyer tokens (POST /demo/tokens): a key pair of this run only, tokens of a quarter of an hour. */
    static final String DEMO_TOKEN_ISSUER = "demoTokenIssuer";
    static final Duration DEMO_TOKEN_LIFETIME = Duration.ofMinutes(15);

    private static final Logger LOG = LoggerFactory.getLogger(DemoModeLauncher.class);

    private final ConfigurableEnvironment environment;
    private volatile EmbeddedRedis redis;
    private volatile EmbeddedMariaDb mariadb;

    public DemoModeLauncher(ConfigurableEnvironment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        EmbeddedServersProperties properties = Binder.get(environment)
                .bindOrCreate(EmbeddedServersProperties.PREFIX, EmbeddedServersProperties.class);
        Predicate<ServerAddress> answers = address -> address.answers(properties.probeTimeout());
        Map<String, Object> chosen = new LinkedHashMap<>();
        List<String> started = new ArrayList<>();
        try {
            chooseRedis(properties, answers, chosen, started);
            chooseDatabase(properties, answers, chosen, started);
        } catch (RuntimeException e) {
            destroy();
            throw e;
        }
        if (!chosen.isEmpty()) {
            environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, chosen));
        }
        if (properties.enabled()) {
            announceDemoMode(started);
            beanFactory.registerSingleton(DEMO_TOKEN_ISSUER,
                    DemoTokenIssuer.generate(Clock.systemUTC(), DEMO_TOKEN_LIFETIME));
        }
    }

    private void chooseRedis(EmbeddedServersProperties properties, Predicate<ServerAddress> answers,
                             Map<String, Object> chosen, List<String> started) {
        if (environment.containsProperty(REDIS_CLUSTER_NODES)) {
            LOG.info("Redis: using the configured cluster {}", environment.getProperty(REDIS_CLUSTER_NODES));
            return; // a configured cluster is never replaced by, or probed for, an embedded server
        }
        Optional<ServerAddress> configured = environment.containsProperty(REDIS_HOST)
                || environment.containsProperty(REDIS_PORT)
                ? Optional.of(new ServerAddress(environment.getProperty(REDIS_HOST, "127.0.0.1"),
                        environment.getProperty(REDIS_PORT, Integer.class, 6379)))
                : Optional.empty();
        if (configured.isPresent() && !answers.test(configured.get())) {
            // ADR 39: the service starts while its Redis is down and connects when it answers; the database decides
            // reservations meanwhile. A configured server is still never replaced by an embedded one.
            LOG.warn("Redis: the configured server {} does not answer; starting without it, it is connected to when "
                    + "it answers", configured.get());
            return;
        }
        ServerSource source = ServerSource.choose("Redis", configured, REDIS_HOST + " / " + REDIS_PORT,
                ServerAddress.parse(properties.redis().probe()), properties.enabled(), answers);
        ServerAddress address = switch (source) {
            case Configured(ServerAddress at) -> {
                LOG.info("Redis: using the configured server {}", at);
                yield at;
            }
            case Local(ServerAddress at) -> {
                LOG.info("Redis: none configured, using the one answering on {}", at);
                yield at;
            }
            case Embedded() -> {
                EmbeddedRedis server = EmbeddedRedis.start(Path.of(properties.redis().dataDir()), properties.redis().port());
                redis = server;
                started.add("Redis " + EmbeddedRedis.BUNDLED_VERSION + " on " + server.address() + ", data in "
                        + server.dataDirectory());
                yield server.address();
            }
        };
        if (!(source instanceof Configured)) {
            chosen.put(REDIS_HOST, address.host());
            chosen.put(REDIS_PORT, address.port());
        }
    }

    private void chooseDatabase(EmbeddedServersProperties properties, Predicate<ServerAddress> answers,
                                Map<String, Object> chosen, List<String> started) {
        String url = environment.getProperty(DATASOURCE_URL);
        if (url != null && !url.isBlank() && JdbcAddress.of(url).isEmpty()) {
            LOG.info("Database: using the configured {} (not a single host:port, so not probed)", DATASOURCE_URL);
            return;
        }
        Optional<ServerAddress> configured = url == null || url.isBlank() ? Optional.empty() : JdbcAddress.of(url);
        ServerSource source = ServerSource.choose("database", configured, DATASOURCE_URL,
                ServerAddress.parse(properties.mariadb().probe()), properties.enabled(), answers);
        switch (source) {
            case Configured(ServerAddress at) -> LOG.info("Database: using the configured server {}", at);
            case Local(ServerAddress at) -> {
                LOG.info("Database: none configured, using the one answering on {} (database {})", at, DATABASE);
                chosen.put(DATASOURCE_URL, "jdbc:mysql://" + at + "/" + DATABASE
                        + "?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true");
            }
            case Embedded() -> {
                EmbeddedMariaDb server = EmbeddedMariaDb.start(Path.of(properties.mariadb().dataDir()),
                        properties.mariadb().port());
                mariadb = server;
                started.add("MariaDB " + EmbeddedMariaDb.BUNDLED_VERSION + " on " + server.address() + ", data in "
                        + server.dataDirectory());
                chosen.put(DATASOURCE_URL, server.jdbcUrl(DATABASE));
                chosen.put("spring.datasource.username", EmbeddedMariaDb.USER);
                chosen.put("spring.datasource.password", EmbeddedMariaDb.PASSWORD);
            }
        }
    }

    private static void announceDemoMode(List<String> started) {
        String rule = "=".repeat(100);
        StringBuilder banner = new StringBuilder("\n").append(rule)
                .append("\n DEMO MODE (").append(EmbeddedServersProperties.DEMO_MODE)
                .append("=true, the demo profile).")
                .append(" NOT FOR PRODUCTION.")
                .append("\n Buyer tokens come from POST /demo/tokens, signed with a key made at this start.");
        if (!started.isEmpty()) {
            banner.append("\n Nothing configured and nothing answering, so these servers run inside this process:");
            started.forEach(server -> banner.append("\n   ").append(server));
        }
        banner.append("\n Run without the demo profile, with spring.data.redis.host/port, spring.datasource.url and ")
                .append("spring.kafka.bootstrap-servers set, to use real servers only.\n").append(rule);
        LOG.warn("{}", banner);
    }

    /** The embedded Redis this launcher started; null when it used another. */
    public EmbeddedRedis redis() {
        return redis;
    }

    /** The embedded MariaDB this launcher started; null when it used another. */
    public EmbeddedMariaDb mariadb() {
        return mariadb;
    }

    @Override
    public void destroy() {
        EmbeddedMariaDb database = mariadb;
        if (database != null) {
            mariadb = null;
            database.close();
        }
        EmbeddedRedis cache = redis;
        if (cache != null) {
            redis = null;
            cache.close();
        }
    }
}
