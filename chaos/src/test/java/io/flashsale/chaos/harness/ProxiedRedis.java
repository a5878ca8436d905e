package io.flashsale.chaos.harness;

import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.TcpProxy;

import java.nio.file.Path;
import java.util.Map;

/** One {@code redis-server} (AOF everysec) of the harness's own, reached through a TCP proxy the faults act on. */
final class ProxiedRedis implements RedisUnderTest {

    private final RedisServerProcess server;
    private final TcpProxy link;

    ProxiedRedis(Path workDirectory) {
        this.server = RedisServerProcess.startedIn(workDirectory, RedisServerProcess.Persistence.AOF_EVERYSEC);
        this.link = new TcpProxy(server.port());
    }

    RedisServerProcess server() {
        return server;
    }

    TcpProxy link() {
        return link;
    }

    @Override
    public Map<String, String> serviceSettings() {
        return Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", Integer.toString(link.port()));
    }

    @Override
    public void heal() {
        link.heal();
        server.thawQuietly();
        if (!server.isAlive()) {
            server.restart();
        }
    }

    @Override
    public void close() {
        link.close();
        server.close();
    }
}
