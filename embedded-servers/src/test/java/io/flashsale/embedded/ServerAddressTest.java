package io.flashsale.embedded;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerAddressTest {

    @Test
    void parsesHostAndPort() {
        assertThat(ServerAddress.parse("127.0.0.1:6379")).isEqualTo(new ServerAddress("127.0.0.1", 6379));
        assertThat(ServerAddress.parse("db.internal:3306").toString()).isEqualTo("db.internal:3306");
    }

    @Test
    void refusesWhatIsNoAddress() {
        assertThatThrownBy(() -> ServerAddress.parse("6379")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerAddress.parse("host:")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerAddress.parse("host:70000")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void answersOnlyWhileSomethingListens() throws IOException {
        int port;
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = listening.getLocalPort();
            assertThat(new ServerAddress("127.0.0.1", port).answers(Duration.ofSeconds(1))).isTrue();
        }
        assertThat(new ServerAddress("127.0.0.1", port).answers(Duration.ofMillis(300))).isFalse();
    }
}
