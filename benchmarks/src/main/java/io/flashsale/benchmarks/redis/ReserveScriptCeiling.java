package io.flashsale.benchmarks.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ReserveScriptCall;
import io.flashsale.benchmarks.SaleItem;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationRequest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The reserve script's own ceiling: the EVALSHA the production adapter sends (same keys, same arguments, the sale
 * window judged by Redis TIME), as a command line for {@code redis-benchmark}, whose C client costs far less per call
 * than any JVM client. Every call carries a fresh random reservation, buyer and request id ({@code __rand_int__}), so
 * each one records a reservation, as strategy 7's calls do. The sale has plenty of stock; {@link #close} drops it.
 */
public final class ReserveScriptCeiling implements AutoCloseable {

    private static final String RANDOM = "__rand_int__";
    private static final String TOKEN = "RANDOMTOKEN";

    private final FlashsaleScriptStrategy strategy;
    private final List<String> command = new ArrayList<>();

    public ReserveScriptCeiling(RedisServer server) {
        this.strategy = new FlashsaleScriptStrategy(server);
        SaleItem item = SaleItem.fresh(1_000_000_000L, 1);
        strategy.stock(item);
        ActivityId activity = FlashsaleScriptStrategy.activityOf(item.sku());
        var request = new ReservationRequest(ReservationId.of(activity, TOKEN), new BuyerId(TOKEN),
                new RequestId(TOKEN), List.of(new ReservationLine(new SkuId(item.sku()), 1)), Instant.now());
        RedisClient client = RedisClient.create(server.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            command.add("EVALSHA");
            command.add(LuaScript.load(connection.sync(), "reserve").sha());
        } finally {
            client.shutdown();
        }
        String[] keys = ReserveScriptCall.keys(request);
        command.add(Integer.toString(keys.length));
        command.addAll(List.of(keys));
        for (String argument : ReserveScriptCall.arguments(request, true)) {
            command.add(argument.replace(TOKEN, RANDOM));
        }
    }

    /** {@code EVALSHA <sha> <n> <keys...> <arguments...>}, empty arguments as they are. */
    public List<String> command() {
        return List.copyOf(command);
    }

    @Override
    public void close() {
        strategy.close();
    }
}
