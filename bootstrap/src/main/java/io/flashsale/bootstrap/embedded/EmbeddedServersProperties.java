package io.flashsale.bootstrap.embedded;

import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Demo mode: what the service does when no Redis or database address is configured (ADR 28, ADR 80).
 *
 * @param enabled      demo mode, off by default and turned on by the {@code demo} profile: a server that is not
 *                     configured is looked for on its probe address, else started in-process (Kafka's broker too),
 *                     and buyers get tokens from the demo issuer. Off, a server that is not configured is a start-up
 *                     error naming its property
 * @param probeTimeout how long a TCP connect to a probed or configured address may take
 */
public record EmbeddedServersProperties(@DefaultValue("false") boolean enabled,
                                        @DefaultValue("500ms") Duration probeTimeout,
                                        @DefaultValue Redis redis,
                                        @DefaultValue MariaDb mariadb) {

    public static final String PREFIX = "flashsale.embedded";
    /** The switch of demo mode, which the {@code demo} profile sets. */
    public static final String DEMO_MODE = PREFIX + ".enabled";

    /**
     * @param probe   used when it answers and nothing is configured
     * @param dataDir the embedded server's append-only file, kept across restarts
     * @param port    the embedded server's port; 0 picks a free one at every start
     */
    public record Redis(@DefaultValue("127.0.0.1:6379") String probe,
                        @DefaultValue("./data/redis") String dataDir,
                        @DefaultValue("0") int port) {
    }

    /**
     * @param probe   used when it answers and nothing is configured
     * @param dataDir the embedded server's data directory, kept across restarts
     * @param port    the embedded server's port; 0 picks a free one at every start
     */
    public record MariaDb(@DefaultValue("127.0.0.1:3306") String probe,
                          @DefaultValue("./data/mariadb") String dataDir,
                          @DefaultValue("0") int port) {
    }
}
