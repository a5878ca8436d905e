package io.flashsale.domain.shared;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every external id has one shape, {@code [A-Za-z0-9_-]{1,64}}: safe in Redis keys, URLs, SQL and logs. */
class IdentifierTest {

    private record IdType(String field, Function<String, Object> constructor) {
        @Override
        public String toString() {
            return field;
        }
    }

    private static final List<IdType> ID_TYPES = List.of(
            new IdType("activityId", ActivityId::new),
            new IdType("skuId", SkuId::new),
            new IdType("buyerId", BuyerId::new),
            new IdType("requestId", RequestId::new));

    private static final List<String> VALID = List.of(
            "a", "Z", "0", "-", "_", "sku-42_B", "ABCxyz0123456789", "a".repeat(64));

    private static final List<String> INVALID = List.of(
            "", " ", "a".repeat(65), "a b", " a", "a ",
            "caf\u00e9", "\u65e5\u672c", "\ud83d\ude00", "\uff41", "\u0430",
            "a\n", "a\r", "a\t", "a\u0000", "\u0000", "a\u007f", "a\u001b[31m", "a\u2028",
            "a' OR 1=1", "a' OR '1'='1", "1; DROP TABLE orders", "a\"", "a`",
            "}", "{", ":", "a:b", "fs:{x}", "{a}", "]]", "redis.call('DEL')", "a..b", "a.b", "a/b", "../a",
            "%00", "a%20b", "a*", "a?", "a\\b");

    static Stream<Arguments> validValues() {
        return ID_TYPES.stream().flatMap(type -> VALID.stream().map(value -> Arguments.of(type, value)));
    }

    static Stream<Arguments> invalidValues() {
        return ID_TYPES.stream().flatMap(type -> INVALID.stream().map(value -> Arguments.of(type, value)));
    }

    static Stream<IdType> idTypes() {
        return ID_TYPES.stream();
    }

    @ParameterizedTest(name = "{0} accepts \"{1}\"")
    @MethodSource("validValues")
    void givenOneToSixtyFourCharactersOfLettersDigitsDashOrUnderscore_thenAccepted(IdType type, String value) {
        assertThat(type.constructor().apply(value)).hasToString(value);
        assertThat(Identifier.isValid(value)).isTrue();
    }

    @ParameterizedTest(name = "{0} refuses [{index}]")
    @MethodSource("invalidValues")
    void givenAnythingElse_thenRefusedNamingTheField(IdType type, String value) {
        assertThat(Identifier.isValid(value)).isFalse();
        assertThatThrownBy(() -> type.constructor().apply(value))
                .isInstanceOfSatisfying(InvalidValueException.class, refused -> {
                    assertThat(refused.field()).isEqualTo(type.field());
                    assertThat(refused.getMessage()).startsWith(type.field());
                });
    }

    @ParameterizedTest(name = "{0} refuses null")
    @MethodSource("idTypes")
    void givenNull_thenRefused(IdType type) {
        assertThat(Identifier.isValid(null)).isFalse();
        assertThatThrownBy(() -> type.constructor().apply(null)).isInstanceOf(InvalidValueException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "ABC"})
    void idsAreCaseSensitive(String value) {
        assertThat(new SkuId(value)).isNotEqualTo(new SkuId(value.equals("abc") ? "ABC" : "abc"));
    }

    /** The shape as a regular expression: the referee of the hand-written check. */
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    @Test
    void givenRandomText_thenAcceptedExactlyWhenTheRegularExpressionMatches() {
        Random random = new Random(20261202);
        int accepted = 0;
        for (int i = 0; i < 50_000; i++) {
            String value = RandomIdText.next(random);
            boolean valid = Identifier.isValid(value);
            assertThat(valid).as("\"%s\"", value).isEqualTo(SHAPE.matcher(value).matches());
            accepted += valid ? 1 : 0;
        }
        // Both answers are common enough for the comparison to mean something.
        assertThat(accepted).isBetween(5_000, 45_000);
    }
}
