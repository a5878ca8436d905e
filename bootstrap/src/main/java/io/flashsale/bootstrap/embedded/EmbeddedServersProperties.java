package io.flashsale.bootstrap.embedded;

import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Demo mode: what the service does when no Redis or database address is configured.
 *
 * @param enabled      false forbids embedded servers (Kafka's included): with nothing configured and nothing
 *                     answering on the probed addresses the service then refuses to start
 * @param probeTimeout how long a TCP connect to a probed or configured address may take
 */
public record EmbeddedServersProperties(@DefaultValue("true") boolean enabled,
                                        @DefaultValue("500ms") Duration probeTimeout,
                                        @DefaultValue Redis redis,
                                        @DefaultValue MariaDb mariadb) {

    public static final String PREFIX = "flashsale.embedded";

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
