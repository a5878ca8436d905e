package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The names {@code lua/lib/ledger.lua} spells out for the scripts are the ones the adapter's Java reads: the record's
 * separator and status letters ({@link ReservationRecord}) and a SKU's stock fields ({@link RedisKeys}). Read from the
 * library's text, so a name changed on one side only fails here rather than in a script's run.
 */
class LuaLibraryNamesTest {

    private static final SkuId SKU = new SkuId("sku");
    private static final String LIBRARY = read("/lua/lib/ledger.lua");

    @Test
    void theRecordsSeparatorIsReservationRecords_andThePatternsThatReadARecordAreMadeOfIt() {
        String separator = constant("FS_RECORD_SEPARATOR = '(.)'");
        String part = "[^" + separator + "]*";

        assertThat(separator).isEqualTo(record(ReservationStatus.RESERVED).encode().substring(1, 2));
        assertThat(constant("FS_RECORD_RESERVED = '(.*)'")).isEqualTo(record(ReservationStatus.RESERVED).encode()
                .substring(0, 2));
        assertThat(constant("FS_RECORD_SEPARATOR_BYTE = (\\d+)")).isEqualTo(String.valueOf((int) separator.charAt(0)));
        assertThat(constant("FS_RECORD_NEXT_PART = '(.*)'")).isEqualTo("(" + part + ")" + separator);
        assertThat(constant("FS_RECORD_LINES = '(.*)'"))
                .isEqualTo("^" + (part + separator).repeat(3) + "(" + part + ")");
        assertThat(constant("FS_RECORD_FIVE_PARTS = '(.*)'"))
                .isEqualTo("^" + (part + separator).repeat(4) + part + "$");
    }

    @Test
    void noScriptSpellsTheRecordsSeparatorOutsideTheLibrarysRecordConstants() throws IOException {
        String separator = constant("FS_RECORD_SEPARATOR = '(.)'");
        List<Path> files;
        try (Stream<Path> lua = Files.walk(Path.of("src/main/resources/lua"))) {
            files = lua.filter(file -> file.toString().endsWith(".lua")).toList();
        }
        assertThat(files).hasSizeGreaterThan(20);
        for (Path file : files) {
            for (String line : Files.readAllLines(file)) {
                String code = line.replaceAll("--.*", "");
                if (!code.startsWith("local FS_RECORD_")) {
                    assertThat(code).as("%s: %s", file.getFileName(), line).doesNotContain(separator);
                }
            }
        }
    }

    @Test
    void everyStatusHasReservationRecordsLetter_andTheLettersReadBackAsTheirStatus() {
        Map<String, String> letters = table("FS_STATUS_LETTER");
        Map<String, String> statuses = table("FS_LETTER_STATUS");

        assertThat(letters).hasSameSizeAs(ReservationStatus.values());
        for (ReservationStatus status : ReservationStatus.values()) {
            String letter = record(status).encode().substring(0, 1);
            assertThat(letters.get(status.name())).as(status.name()).isEqualTo(letter);
            assertThat(statuses.get(letter)).as(letter).isEqualTo(status.name());
        }
    }

    @Test
    void aSkusStockFieldsAreTheOnesRedisKeysNames() {
        Matcher suffix = Pattern.compile("return sku \\.\\. '([^']*)'").matcher(definition("fs_stock_field"));

        assertThat(suffix.find()).isTrue();
        assertThat(SKU.value() + suffix.group(1)).as("avail").isEqualTo(RedisKeys.segmentField(SKU, 1));
        assertThat(suffix.find()).isTrue();
        for (String figure : List.of("reserved", "sold", "held", "version")) {
            assertThat(SKU.value() + suffix.group(1) + figure).isEqualTo(RedisKeys.stockField(SKU, figure));
        }
        assertThat(suffix.find()).isFalse();
    }

    @Test
    void aStockTransfersRecordsAreTheOnesRedisKeysNames() {
        assertThat(SKU.value() + constant("FS_TRANSFER_OUT = '(.*)'") + 7)
                .isEqualTo(RedisKeys.transferOutField(SKU, 7));
        assertThat(SKU.value() + constant("FS_TRANSFER_IN = '(.*)'") + 7)
                .isEqualTo(RedisKeys.transferInField(SKU, 7));
    }

    private static ReservationRecord record(ReservationStatus status) {
        return new ReservationRecord(status, new BuyerId("buyer"), new RequestId("request"),
                List.of(new ReservationLine(SKU, 1)), Instant.EPOCH, null, null, null);
    }

    /** The one capture of a pattern in the library. */
    private static String constant(String pattern) {
        Matcher matcher = Pattern.compile("(?m)^local " + pattern + "$").matcher(LIBRARY);
        assertThat(matcher.find()).as(pattern).isTrue();
        return matcher.group(1);
    }

    /** A one-line table of the library, {@code local NAME = { KEY = 'value', ... }}. */
    private static Map<String, String> table(String name) {
        Matcher entry = Pattern.compile("(\\w+) = '([^']*)'").matcher(constant(name + " = \\{(.*)}"));
        Map<String, String> entries = new HashMap<>();
        while (entry.find()) {
            entries.put(entry.group(1), entry.group(2));
        }
        return entries;
    }

    private static String definition(String function) {
        int start = LIBRARY.indexOf("local function " + function + "(");
        assertThat(start).as(function).isNotNegative();
        return LIBRARY.substring(start, LIBRARY.indexOf("\nend\n", start));
    }

    private static String read(String resource) {
        try (InputStream in = LuaLibraryNamesTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
