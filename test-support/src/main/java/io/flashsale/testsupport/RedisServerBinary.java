package io.flashsale.testsupport;

import io.flashsale.embedded.EmbeddedRedis;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The {@code redis-server} binary that tests start servers of their own from: the one on the PATH, else the binary
 * that embedded-redis ships (the demo mode's Redis 6.2), so a machine with only a JDK runs those tests too.
 * {@code FLASHSALE_TEST_SERVICES=embedded} takes the packaged binary even where one is installed.
 */
public final class RedisServerBinary {

    private static final String NAME = "redis-server";

    private static Path chosen;

    private RedisServerBinary() {
    }

    public static synchronized Path path() {
        if (chosen == null) {
            boolean forcedEmbedded = "embedded".equalsIgnoreCase(Env.get("FLASHSALE_TEST_SERVICES", "auto"));
            Optional<Path> installed = forcedEmbedded ? Optional.empty() : onThePath();
            chosen = installed.orElseGet(EmbeddedRedis::packagedBinary);
            System.out.println("[flashsale-tests] redis-server: " + chosen
                    + (installed.isPresent() ? " (from the PATH)" : " (packaged by embedded-redis)"));
        }
        return chosen;
    }

    /** A regular, executable file: a binary masked by a bind mount of /dev/null does not count. */
    static Optional<Path> onThePath() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Arrays.stream(path.split(File.pathSeparator))
                .filter(directory -> !directory.isBlank())
                .map(directory -> Path.of(directory, NAME))
                .filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                .findFirst();
    }
}
