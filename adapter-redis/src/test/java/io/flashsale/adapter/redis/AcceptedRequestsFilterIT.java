package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.port.out.AcceptedRequests;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter of accepted request keys on the real Redis (ADR 0069): the bits the scripts set for a key are exactly the
 * positions Java computes for it, whatever the size, and a filter read back holds every key added and few others.
 */
@Timeout(120)
class AcceptedRequestsFilterIT {

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

    private final RedisCommands<String, String> redis = SharedRedis.connection().sync();
    private final LuaScript probe = LuaScript.load(redis, "keys_probe");
    private final ActivityId activityId = new ActivityId("kf-" + UUID.randomUUID().toString().substring(0, 12));
    private final String filter = RedisKeys.acceptedRequests(activityId);
    private final Random random = new Random(69);

    @AfterEach
    void forget() {
        redis.del(filter);
    }

    @Test
    void givenRandomKeysAndSizes_whenTheScriptAddsOneKey_thenItSetsExactlyThePositionsJavaComputes() {
        for (int trial = 0; trial < 1_000; trial++) {
            long bits = trial % 10 == 0 ? AcceptedRequestsFilter.Size.forUnits(100_000_000).bits()
                    : 64L * (1 + random.nextInt(4_096));
            int hashes = 1 + random.nextInt(16);
            String key = randomId() + ":" + randomId();

            probe.run(redis, ScriptOutputType.INTEGER, new String[] {filter}, Long.toString(bits),
                    Integer.toString(hashes), key);

            long[] expected = Arrays.stream(AcceptedRequestsFilter.positions(key, bits, hashes)).distinct().toArray();
            assertThat(redis.bitcount(filter, 8, -1)).as("bits set for %s in %d/%d", key, bits, hashes)
                    .isEqualTo(expected.length);
            for (long position : expected) {
                assertThat(redis.getbit(filter, 64 + position)).as("bit %d of %s", position, key).isEqualTo(1L);
            }
        }
    }

    @Test
    void givenAFilterSizedForASale_whenFilledToItsDesignLoad_thenItHoldsEveryKeyAndAboutOnePercentOfOthers() {
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(2_000);
        List<String> args = new ArrayList<>(List.of(Long.toString(size.bits()), Integer.toString(size.hashes())));
        List<String[]> added = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            String[] key = {randomId(), randomId()};
            added.add(key);
            args.add(key[0] + ":" + key[1]);
        }
        probe.run(redis, ScriptOutputType.INTEGER, new String[] {filter}, args.toArray(String[]::new));

        AcceptedRequests read = new RedisAcceptedRequests(redis).read(activityId).orElseThrow();

        assertThat(added).allSatisfy(key -> assertThat(read.mayHold(new BuyerId(key[0]), new RequestId(key[1])))
                .as("added %s", String.join(":", key)).isTrue());
        long falsePositives = random.ints(20_000).filter(i -> read.mayHold(new BuyerId(randomId()),
                new RequestId(randomId()))).count();
        assertThat(falsePositives).as("of 20,000 keys never added (about 1%% expected)").isLessThan(400);
    }

    @Test
    void givenNoFilterOrOneBeingRefilled_whenRead_thenNothingUsableComesBack() {
        var port = new RedisAcceptedRequests(redis);
        assertThat(port.read(activityId)).isEmpty();

        probe.run(redis, ScriptOutputType.INTEGER, new String[] {filter}, "1024", "7", "ann:k1");
        assertThat(port.read(activityId)).isPresent();
        redis.setbit(filter, 47, 0);

        assertThat(port.read(activityId)).as("state 0: a rebuild is refilling it").isEmpty();
    }

    private String randomId() {
        char[] id = new char[4 + random.nextInt(30)];
        for (int i = 0; i < id.length; i++) {
            id[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(id);
    }
}
