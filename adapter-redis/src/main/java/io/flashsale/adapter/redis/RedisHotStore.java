package io.flashsale.adapter.redis;

import io.flashsale.application.port.out.HotStoreArchivePort;
import io.flashsale.application.port.out.HotStoreReconciliationPort;
import io.flashsale.application.port.out.HotStoreSettlementPort;
import io.flashsale.application.port.out.ReservationOutboxPort;
import io.flashsale.application.port.out.StockReservationPort;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

import java.time.Duration;

/**
 * The service's one Lettuce client and one shared, thread-safe connection (Lettuce pipelines concurrent callers on
 * it), and the adapters built on them. Nothing on the connection may block (no XREADGROUP BLOCK, no BLPOP): every
 * caller would wait behind it. Wiring code sees only this class and the ports, never Lettuce.
 */
public final class RedisHotStore implements AutoCloseable {

    /** @param password null or empty: no AUTH */
    public record Settings(String host, int port, String password, int database, Duration timeout) {

        RedisURI toUri() {
            RedisURI.Builder uri = RedisURI.builder().withHost(host).withPort(port).withDatabase(database)
                    .withTimeout(timeout);
            if (password != null && !password.isEmpty()) {
                uri.withPassword(password.toCharArray());
            }
            return uri.build();
        }
    }

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final String outboxRegistry;

    private RedisHotStore(RedisClient client, String outboxRegistry) {
        this.client = client;
        this.connection = client.connect();
        this.outboxRegistry = outboxRegistry;
    }

    /**
     * @param outboxRegistry the set of activities the outbox relays read; every adapter of one service uses the same
     *                       one, so a warm-up, a rebuild and an archive all change the set the relays read
     */
    public static RedisHotStore connect(Settings settings, String outboxRegistry) {
        RedisClient client = RedisClient.create(settings.toUri());
        try {
            return new RedisHotStore(client, outboxRegistry);
        } catch (RuntimeException unreachable) {
            client.shutdown();
            throw unreachable;
        }
    }

    public StockReservationPort stockReservations() {
        return new RedisStockReservationAdapter(connection, outboxRegistry);
    }

    public ReservationOutboxPort outbox() {
        return new RedisReservationOutbox(connection, outboxRegistry);
    }

    public HotStoreArchivePort archive() {
        return new RedisActivityArchive(connection, outboxRegistry);
    }

    public HotStoreSettlementPort settlement() {
        return new RedisHotStoreSettlement(connection);
    }

    public HotStoreReconciliationPort reconciliation() {
        return new RedisHotStoreReconciliation(connection, outboxRegistry);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
