package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.shared.RandomIdText;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReservationIdTest {

    @Test
    void ofJoinsActivityAndTokenWithADot() {
        ReservationId id = ReservationId.of(new ActivityId("summer-sale_1"), "01JABCxyz");

        assertThat(id.value()).isEqualTo("summer-sale_1.01JABCxyz");
        assertThat(id).hasToString("summer-sale_1.01JABCxyz");
    }

    @Test
    void activityIdIsReadBackFromTheId() {
        assertThat(ReservationId.of(new ActivityId("summer-sale_1"), "tok").activityId())
                .isEqualTo(new ActivityId("summer-sale_1"));
        assertThat(new ReservationId("a.b").activityId()).isEqualTo(new ActivityId("a"));
    }

    @Test
    void givenSliceOfASlicedSale_thenTheIdNamesItAndReadsItBack() {
        var slice = new SaleSlice(new ActivityId("summer-sale_1"), 2, new SaleSlices(3));

        ReservationId id = ReservationId.of(slice, "01JABCxyz");

        assertThat(id.value()).isEqualTo("summer-sale_1.2of3.01JABCxyz");
        assertThat(id.activityId()).isEqualTo(new ActivityId("summer-sale_1"));
        assertThat(id.slice()).isEqualTo(slice);
        assertThat(new ReservationId("a.0of64.t").slice()).isEqualTo(new SaleSlice(new ActivityId("a"), 0,
                new SaleSlices(64)));
    }

    @Test
    void givenSaleOfOneSlice_thenTheIdHasTheFormBeforeSlicesAndReadsAsSliceZeroOfOne() {
        ReservationId id = ReservationId.of(new SaleSlice(new ActivityId("a"), 0, SaleSlices.ONE), "tok");

        assertThat(id.value()).isEqualTo("a.tok");
        assertThat(id.slice()).isEqualTo(new SaleSlice(new ActivityId("a"), 0, SaleSlices.ONE));
    }

    @Test
    void givenLongestSlicedForm_thenAccepted() {
        String value = "a".repeat(64) + ".63of64." + "T".repeat(32);

        assertThat(ReservationId.isValid(value)).isTrue();
        assertThat(new ReservationId(value).slice().index()).isEqualTo(63);
    }

    @Test
    void givenLongestActivityIdAndToken_thenAccepted() {
        String activity = "a".repeat(64);
        String token = "T".repeat(32);

        ReservationId id = ReservationId.of(new ActivityId(activity), token);

        assertThat(id.activityId().value()).isEqualTo(activity);
        assertThat(ReservationId.isValid(activity + "." + token)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"noDot", ".tok", "act.", "act.tok.more", "a.b.c", "a.1of1.tok", "a.3of3.tok", "a.01of3.tok",
            "a.1of65.tok", "a.1of03.tok", "a.of3.tok", "a.1of.tok", "a.1x3.tok", "a.1of3.", "a..1of3.tok", "a.1of3.t.k", "act.tok-en", "act.tok_en",
            "act.tok en", "act.t\u00f6k", "act.tok\n", "act..tok", "a'OR'1'='1.tok", "act.{x}", "fs:{a}.tok"})
    void givenMalformedValue_thenRefusedAndNotValid(String value) {
        assertThat(ReservationId.isValid(value)).isFalse();
        assertThatThrownBy(() -> new ReservationId(value))
                .isInstanceOfSatisfying(InvalidValueException.class,
                        refused -> assertThat(refused.field()).isEqualTo("reservationId"));
    }

    @Test
    void givenActivityPartOfSixtyFiveCharactersOrTokenOfThirtyThree_thenRefused() {
        assertThat(ReservationId.isValid("a".repeat(65) + ".tok")).isFalse();
        assertThat(ReservationId.isValid("act." + "T".repeat(33))).isFalse();
    }

    @Test
    void givenTokenThatIsNotAlphanumeric_thenOfRefuses() {
        ActivityId activity = new ActivityId("sale");

        assertThatThrownBy(() -> ReservationId.of(activity, "tok-1")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> ReservationId.of(activity, "")).isInstanceOf(InvalidValueException.class);
    }

    /** The shape as a regular expression: the referee of the hand-written check. */
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9_-]{1,64}\\.[A-Za-z0-9]{1,32}");

    @Test
    void givenRandomText_thenValidExactlyWhenTheRegularExpressionMatches() {
        Random random = new Random(20261202);
        int accepted = 0;
        for (int i = 0; i < 50_000; i++) {
            // An activity part, then (mostly) a dot and a token of up to 35 characters, around its limit of 32.
            String value = RandomIdText.next(random);
            if (random.nextInt(10) > 0) {
                value += "." + RandomIdText.next(random, random.nextInt(4) == 0 ? 30 + random.nextInt(6) : random.nextInt(6));
            }
            boolean valid = ReservationId.isValid(value);
            assertThat(valid).as("\"%s\"", value).isEqualTo(SHAPE.matcher(value).matches());
            accepted += valid ? 1 : 0;
        }
        // Both answers are common enough for the comparison to mean something.
        assertThat(accepted).isBetween(5_000, 45_000);
    }

    /** The sliced form as a regular expression, with k < n checked beside it. */
    private static final Pattern SLICED = Pattern.compile(
            "[A-Za-z0-9_-]{1,64}\\.(0|[1-9][0-9]?)of([2-9]|[1-5][0-9]|6[0-4])\\.[A-Za-z0-9]{1,32}");

    @Test
    void givenRandomSliceParts_thenValidExactlyWhenTheSlicedFormMatchesAndTheSliceIsOneOfTheSales() {
        Random random = new Random(20261206);
        int accepted = 0;
        for (int i = 0; i < 20_000; i++) {
            String k = random.nextInt(8) == 0 ? "0" + random.nextInt(10) : Integer.toString(random.nextInt(70));
            String n = random.nextInt(8) == 0 ? "" : Integer.toString(random.nextInt(70));
            String of = random.nextInt(10) == 0 ? "Of" : "of";
            String value = RandomIdText.next(random, 1 + random.nextInt(6)) + "." + k + of + n + "."
                    + RandomIdText.next(random, random.nextInt(4) == 0 ? 30 + random.nextInt(6) : 1 + random.nextInt(6));
            var matcher = SLICED.matcher(value);
            boolean expected = matcher.matches() && Integer.parseInt(matcher.group(1)) < Integer.parseInt(matcher.group(2));
            assertThat(ReservationId.isValid(value)).as("\"%s\"", value).isEqualTo(expected);
            if (expected) {
                accepted++;
                assertThat(new ReservationId(value).slice().index()).isEqualTo(Integer.parseInt(matcher.group(1)));
            }
        }
        assertThat(accepted).isBetween(2_000, 18_000);
    }
}
