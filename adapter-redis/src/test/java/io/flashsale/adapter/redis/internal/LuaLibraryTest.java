package io.flashsale.adapter.redis.internal;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LuaLibraryTest {

    private static final Pattern USED = Pattern.compile("\\b((?:fs|FS)_\\w+)\\b");
    /** Comments and quoted strings: a library name there is no use of it. */
    private static final Pattern NOT_CODE = Pattern.compile("--[^\\n]*|'[^'\\n]*'");

    private final LuaLibrary library = LuaLibrary.parse(read("/lua/lib/ledger.lua"));

    @Test
    void aScriptCarriesWhatItCallsAndWhatThoseCall_andNothingElse() {
        String needed = code(library.neededBy("return fs_record_read(KEYS[1], ARGV[1])"));

        assertThat(needed).contains("local function fs_record_read(", "local function fs_record_of(",
                "local function fs_record_decode(", "local FS_LETTER_STATUS =", "local FS_RECORD_NEXT_PART =",
                "local FS_RECORD_SEPARATOR =");
        assertThat(needed).doesNotContain("fs_bucket_take", "fs_keys_set", "FS_STATUS_LETTER =");
        assertThat(needed.indexOf("local FS_LETTER_STATUS")).as("in the library's order")
                .isLessThan(needed.indexOf("local function fs_record_decode("));
    }

    @Test
    void everyScriptDefinesEveryLibraryNameItUses() throws IOException {
        // The module's own sources: the tests run in the module's directory.
        Path scripts = Path.of("src/main/resources/lua");
        List<Path> all;
        try (Stream<Path> files = Files.list(scripts)) {
            all = files.filter(file -> file.toString().endsWith(".lua")).toList();
        }
        assertThat(all).hasSizeGreaterThan(20);
        for (Path file : all) {
            String script = Files.readString(file);
            String composed = code(library.neededBy(script) + script);
            Matcher used = USED.matcher(composed);
            while (used.find()) {
                assertThat(composed).as("%s uses %s", file.getFileName(), used.group(1))
                        .containsPattern("(?m)^local (function )?" + used.group(1) + "\\b");
            }
            assertThat(composed.length()).as(file.getFileName().toString())
                    .isLessThan(library.neededBy(String.join(" ", library.names())).length() + script.length() + 1);
        }
    }

    @Test
    void theReserveScriptLeavesOutWhatOnlyOtherScriptsUse() {
        String reserve = code(library.neededBy(read("/lua/reserve.lua")));

        assertThat(reserve).contains("local function fs_bucket_take(", "local function fs_keys_set(")
                .doesNotContain("local function fs_moves_write(", "local function fs_outbox_drained(",
                        "local function fs_instant_pack(");
    }

    @Test
    void aFunctionWithoutItsEndAtColumnZeroIsRefused() {
        assertThatThrownBy(() -> LuaLibrary.parse("local function fs_open()\n    return 1\n  end\n"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("fs_open");
    }

    private static String code(String lua) {
        return NOT_CODE.matcher(lua).replaceAll("");
    }

    private static String read(String resource) {
        try (InputStream in = LuaLibraryTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
