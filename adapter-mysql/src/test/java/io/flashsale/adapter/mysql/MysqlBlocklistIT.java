package io.flashsale.adapter.mysql;

import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.BlocklistChange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The blocklist and its audit against the real server: one row per listed value, one audit row per change. */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(60)
class MysqlBlocklistIT extends LifecycleDatabase {

    private static final Instant AT = Instant.parse("2031-02-03T04:05:06.789Z");

    @Autowired
    MysqlBlocklist blocklist;

    private static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    @Test
    void anEntryIsListedOnceAndEachChangeIsAuditedWithItsOperator() {
        String buyer = unique("bot-");
        BlockEntry entry = new BlockEntry(BlockKind.BUYER, buyer, "card testing", "alice", AT);

        assertThat(blocklist.add(entry)).isTrue();
        assertThat(blocklist.add(new BlockEntry(BlockKind.BUYER, buyer, "again", "bob", AT))).isFalse();
        assertThat(blocklist.entries()).filteredOn(listed -> listed.value().equals(buyer)).containsExactly(entry);

        assertThat(blocklist.remove(BlockKind.BUYER, buyer, "carol", AT.plusSeconds(60))).isTrue();
        assertThat(blocklist.remove(BlockKind.BUYER, buyer, "carol", AT.plusSeconds(61))).isFalse();
        assertThat(blocklist.entries()).noneMatch(listed -> listed.value().equals(buyer));

        assertThat(blocklist.changes()).filteredOn(change -> change.value().equals(buyer)).containsExactly(
                new BlocklistChange(BlocklistChange.Action.ADD, BlockKind.BUYER, buyer, "card testing", "alice", AT),
                new BlocklistChange(BlocklistChange.Action.REMOVE, BlockKind.BUYER, buyer, null, "carol",
                        AT.plusSeconds(60)));
    }

    @Test
    void theSameValueUnderAnotherKindIsAnotherEntry() {
        String value = unique("d");
        assertThat(blocklist.add(new BlockEntry(BlockKind.BUYER, value, "r", "op", AT))).isTrue();
        assertThat(blocklist.add(new BlockEntry(BlockKind.DEVICE, value, "r", "op", AT))).isTrue();
        assertThat(blocklist.entries()).filteredOn(listed -> listed.value().equals(value))
                .extracting(BlockEntry::kind).containsExactlyInAnyOrder(BlockKind.BUYER, BlockKind.DEVICE);
    }

    @Test
    void anAddressBlockIsStoredInItsCanonicalForm() {
        int third = (int) (System.nanoTime() & 0xFF);
        BlockEntry entry = new BlockEntry(BlockKind.ADDRESS, "198.18." + third + ".77/24", "scraper", "op", AT);
        assertThat(entry.value()).isEqualTo("198.18." + third + ".0/24");
        blocklist.add(entry);
        assertThat(blocklist.entries()).contains(entry);
        assertThat(blocklist.remove(BlockKind.ADDRESS, entry.value(), "op", AT)).isTrue();
    }

    @Test
    void twentyConcurrentAddsOfOneValueListItOnceWithOneAuditRow() throws Exception {
        String device = unique("dev-");
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            List<Future<Boolean>> adds = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String operator = "op" + i;
                Callable<Boolean> add = () -> {
                    start.await();
                    return blocklist.add(new BlockEntry(BlockKind.DEVICE, device, "farm", operator, AT));
                };
                adds.add(pool.submit(add));
            }
            start.countDown();
            int added = 0;
            for (Future<Boolean> add : adds) {
                added += add.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(added).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(blocklist.entries()).filteredOn(listed -> listed.value().equals(device)).hasSize(1);
        assertThat(blocklist.changes()).filteredOn(change -> change.value().equals(device)).hasSize(1);
    }
}
