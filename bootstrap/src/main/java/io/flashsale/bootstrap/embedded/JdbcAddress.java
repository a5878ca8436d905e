package io.flashsale.bootstrap.embedded;

import io.flashsale.embedded.ServerAddress;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one host and port of a MySQL or MariaDB JDBC URL, when it names exactly one. */
final class JdbcAddress {

    private static final Pattern SINGLE_HOST = Pattern.compile("jdbc:(?:mysql|mariadb)://([^/:,?\\[\\]]+)(?::(\\d+))?(?:[/?].*)?");
    private static final int DEFAULT_PORT = 3306;

    private JdbcAddress() {
    }

    static Optional<ServerAddress> of(String url) {
        Matcher matcher = SINGLE_HOST.matcher(url.trim());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        int port = matcher.group(2) == null ? DEFAULT_PORT : Integer.parseInt(matcher.group(2));
        return Optional.of(new ServerAddress(matcher.group(1), port));
    }
}
