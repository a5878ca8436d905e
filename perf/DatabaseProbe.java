import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * An unrelated client of the sale's database: one connection running an indexed single-row SELECT on a small table of
 * its own schema, paced (one every INTERVAL_MS), for SECONDS; prints its latency. The harness runs it beside the
 * reserve row and alone, so that the two tell what a sale costs the database's other users.
 *
 *   java -cp mysql-connector-j.jar perf/DatabaseProbe.java JDBC_URL SECONDS [INTERVAL_MS]
 *     the URL names the probe's schema, which holds probe_rows(id INT PRIMARY KEY, v VARCHAR(32)), 1,000 rows
 *   java -cp mysql-connector-j.jar perf/DatabaseProbe.java JDBC_URL create
 *     creates that table and fills it (the schema must exist)
 * Prints: PROBE queries=N p50_us=.. p99_us=.. max_us=..
 */
public class DatabaseProbe {

    private static final int ROWS = 1000;
    private static final int WARM_UP = 50;

    public static void main(String[] args) throws Exception {
        try (Connection connection = DriverManager.getConnection(args[0], "root", "")) {
            if (args[1].equals("create")) {
                create(connection);
                return;
            }
            long seconds = Long.parseLong(args[1]);
            long interval = (args.length > 2 ? Long.parseLong(args[2]) : 10) * 1_000_000L;
            try (PreparedStatement select = connection.prepareStatement("SELECT v FROM probe_rows WHERE id = ?")) {
                for (int i = 0; i < WARM_UP; i++) {
                    query(select);
                }
                long[] latencies = new long[(int) (seconds * 1_000_000_000L / interval) + 1];
                int n = 0;
                long start = System.nanoTime();
                long end = start + seconds * 1_000_000_000L;
                // Paced from the start, not from each answer: a slow answer does not lower the rate asked after it.
                for (long next = start; next < end && n < latencies.length; next += interval) {
                    LockSupport.parkNanos(next - System.nanoTime());
                    long asked = System.nanoTime();
                    query(select);
                    latencies[n++] = (System.nanoTime() - asked) / 1000;
                }
                long[] sorted = Arrays.copyOf(latencies, n);
                Arrays.sort(sorted);
                System.out.printf("PROBE queries=%d p50_us=%d p99_us=%d max_us=%d%n", n + WARM_UP,
                        sorted[n / 2], sorted[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)], sorted[n - 1]);
            }
        }
    }

    private static void query(PreparedStatement select) throws Exception {
        select.setInt(1, ThreadLocalRandom.current().nextInt(1, ROWS + 1));
        try (ResultSet rows = select.executeQuery()) {
            if (!rows.next()) {
                throw new IllegalStateException("probe_rows lacks a row: create it first");
            }
        }
    }

    private static void create(Connection connection) throws Exception {
        try (var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS probe_rows (id INT PRIMARY KEY, v VARCHAR(32) NOT NULL)");
            statement.execute("DELETE FROM probe_rows");
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO probe_rows VALUES (?, ?)")) {
            for (int id = 1; id <= ROWS; id++) {
                insert.setInt(1, id);
                insert.setString(2, "row " + id);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }
}
