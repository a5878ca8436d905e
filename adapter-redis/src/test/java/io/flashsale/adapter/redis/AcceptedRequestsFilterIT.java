package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter of accepted request keys on the real Redis (ADR 0069, layout 1 by ADR 0083): the bits the scripts set for
 * a key are exactly the positions Java computes for it, in either layout and whatever the size, and a filter read back
 * holds every key added and few others.
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
    void givenRandomKeysAndSizes_whenTheScriptAddsOneKeyInLayoutOne_thenItSetsExactlyTheWordAndMaskJavaComputes() {
        for (int trial = 0; trial < 1_000; trial++) {
            long bits = trial % 10 == 0 ? AcceptedRequestsFilter.Size.forUnits(100_000_000).bits()
                    : 64L * (1 + random.nextInt(4_096));
            int hashes = 1 + random.nextInt(6);
            String key = randomId() + ":" + randomId();

            probe.run(redis, ScriptOutputType.INTEGER, new String[] {filter}, Long.toString(bits),
                    Integer.toString(hashes), "1", key);

            AcceptedRequestsFilter.Word word = AcceptedRequestsFilter.Word.of(key, bits, hashes);
            assertThat(redis.bitcount(filter, 8, -1)).as("bits set for %s in %d/%d", key, bits, hashes)
                    .isEqualTo(Integer.bitCount(word.mask()));
            for (int bit = 0; bit < 32; bit++) {
                long expected = (word.mask() & (1 << (31 - bit))) != 0 ? 1 : 0;
                assertThat(redis.getbit(filter, 64 + word.index() * 32 + bit)).as("bit %d of word %d of %s", bit,
                        word.index(), key).isEqualTo(expected);
            }
        }
    }

    @Test
    void givenRandomKeysAndSizes_whenTheScriptAddsOneKeyInLayoutZero_thenItSetsExactlyThePositionsJavaComputes() {
        for (int trial = 0; trial < 1_000; trial++) {
            long bits = trial % 10 == 0 ? AcceptedRequestsFilter.Size.forUnits(100_000_000).bits()
                    : 64L * (1 + random.nextInt(4_096));
            int hashes = 1 + random.nextInt(16);
            String key = randomId() + ":" + randomId();

            probe.run(redis, ScriptOutputType.INTEGER, new String[] {filter}, Long.toString(bits),
                    Integer.toString(hashes), "0", key);

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
        List<String> args = new ArrayList<>(List.of(Long.toString(size.bits()), Integer.toString(size.hashes()),
                Integer.toString(AcceptedRequestsFilter.WORD_LAYOUT)));
        List<String[]> added = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            String[] key = {randomId(), randomId()};
            added.add(key);
            args.add(key[0] + ":" + key[1]);
        }
        probe.run(redis, ScriptOutputType.INTEGER, new String[] {filter}, args.toArray(String[]::new));

        AcceptedRequestsSnapshotPort read = new RedisAcceptedRequests(redis).read(activityId).orElseThrow();

        assertThat(added).allSatisfy(key -> assertThat(read.mayHold(new BuyerId(key[0]), new RequestId(key[1])))
                .as("added %s", String.join(":", key)).isTrue());
        long falsePositives = random.ints(20_000).filter(i -> read.mayHold(new BuyerId(randomId()),
                new RequestId(randomId()))).count();
        assertThat(falsePositives).as("of 20,000 keys never added (about 0.74%% expected)").isLessThan(300);
    }

    /**
     * ADR 0083: the adapter hashes each accepted key into the filter and hands the script the word and mask; the filter
     * reserve calls leave is then byte for byte the one the script's own hashing makes of the same keys.
     */
    @Test
    void givenReservationsThroughTheAdapter_whenTheirFilterIsRead_thenItIsTheOneTheScriptsOwnHashingMakes() {
        Instant now = Instant.now();
        SkuId sku = new SkuId("unit");
        SharedRedis.adapter().warmUp(new Activity(activityId, "filter", now.minusSeconds(60), now.plusSeconds(3_600),
                PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(sku, 500, null, 1))));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            var request = new ReservationRequest(ReservationId.of(activityId, "t" + i), new BuyerId("b-" + randomId()),
                    new RequestId(randomId()), List.of(new ReservationLine(sku, 1)), now);
            assertThat(SharedRedis.adapter().reserve(request)).isInstanceOf(ReservationOutcome.Reserved.class);
            keys.add(RedisKeys.requestField(request.buyerId(), request.requestId()));
        }
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(500);
        String byTheScript = filter + ":by-the-script";
        List<String> args = new ArrayList<>(List.of(Long.toString(size.bits()), Integer.toString(size.hashes()), "1"));
        args.addAll(keys);

        try {
            probe.run(redis, ScriptOutputType.INTEGER, new String[] {byTheScript}, args.toArray(String[]::new));

            assertThat(redis.bitcount(filter, 8, -1)).isPositive();
            assertThat(redis.getrange(filter, 8, -1)).isEqualTo(redis.getrange(byTheScript, 8, -1));
        } finally {
            redis.del(byTheScript);
            SharedRedis.forget(activityId);
        }
    }

    @Test
    void givenNoFilterOrOneBeingRefilled_whenRead_thenNothingUsableComesBack() {
        var port = new RedisAcceptedRequests(redis);
        assertThat(port.read(activityId)).isEmpty();

        probe.run(redis, ScriptOutputType.INTEGER, new String[] {filter}, "1024", "5", "1", "ann:k1");
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
