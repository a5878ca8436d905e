package io.flashsale.adapter.redis;

import io.lettuce.core.resource.EpollProvider;
import io.lettuce.core.resource.Transports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.assertj.core.api.Assertions.assertThat;

/** On Linux x86-64 the Redis client runs on Netty's native epoll transport, not NIO (docs/performance.md). */
class NativeTransportTest {

    @Test
    @EnabledOnOs(OS.LINUX)
    @EnabledIfSystemProperty(named = "os.arch", matches = "amd64|x86_64")
    void givenLinuxOnX86_whenLettuceChoosesItsTransport_thenItIsEpoll() {
        assertThat(Transports.socketChannelClass().getName()).isEqualTo("io.netty.channel.epoll.EpollSocketChannel");
        assertThat(EpollProvider.isAvailable()).isTrue();
    }
}
