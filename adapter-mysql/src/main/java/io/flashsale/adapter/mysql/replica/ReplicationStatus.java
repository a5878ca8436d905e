package io.flashsale.adapter.mysql.replica;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a replica says of its replication ({@code SHOW REPLICA STATUS}, or {@code SHOW SLAVE STATUS} on servers that
 * predate it; MariaDB's columns and MySQL's newer ones alike).
 *
 * @param replicating both the receiving and the applying thread run
 * @param lagSeconds  {@code Seconds_Behind_Master}; empty when the server does not know (a thread stopped, broken)
 */
record ReplicationStatus(boolean replicating, Optional<Long> lagSeconds) {

    /** What a server that is no replica at all answers. */
    static final ReplicationStatus NOT_A_REPLICA = new ReplicationStatus(false, Optional.empty());

    static ReplicationStatus read(Connection connection, int timeoutSeconds) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            try (ResultSet rows = query(statement)) {
                if (!rows.next()) {
                    return NOT_A_REPLICA;
                }
                Map<String, String> columns = new HashMap<>();
                ResultSetMetaData meta = rows.getMetaData();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    columns.put(meta.getColumnLabel(i), rows.getString(i));
                }
                boolean replicating = "Yes".equalsIgnoreCase(either(columns, "Slave_IO_Running", "Replica_IO_Running"))
                        && "Yes".equalsIgnoreCase(either(columns, "Slave_SQL_Running", "Replica_SQL_Running"));
                String lag = either(columns, "Seconds_Behind_Master", "Seconds_Behind_Source");
                return new ReplicationStatus(replicating, Optional.ofNullable(lag).map(Long::valueOf));
            }
        }
    }

    private static ResultSet query(Statement statement) throws SQLException {
        try {
            return statement.executeQuery("SHOW REPLICA STATUS");
        } catch (SQLException older) {
            return statement.executeQuery("SHOW SLAVE STATUS");
        }
    }

    private static String either(Map<String, String> columns, String name, String newerName) {
        return columns.containsKey(name) ? columns.get(name) : columns.get(newerName);
    }
}
