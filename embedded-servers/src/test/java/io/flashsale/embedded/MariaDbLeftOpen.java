package io.flashsale.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A JVM that starts the embedded MariaDB on the directory in its first argument, writes a row, names the server's
 * port in the file of its second argument and exits without closing the server: only shutdown hooks run.
 */
public final class MariaDbLeftOpen {

    private MariaDbLeftOpen() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedMariaDb mariadb = EmbeddedMariaDb.start(Path.of(args[0]), 0);
        try (Connection connection = DriverManager.getConnection(mariadb.jdbcUrl("embedded_it"), EmbeddedMariaDb.USER,
                EmbeddedMariaDb.PASSWORD);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE kept (id INT PRIMARY KEY)");
            statement.execute("INSERT INTO kept VALUES (7)");
        }
        Files.writeString(Path.of(args[1]), Integer.toString(mariadb.address().port()));
        System.exit(0);
    }
}
