package io.flashsale.domain.activity;

import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActivityTest {

    private static final ActivityId ID = new ActivityId("sale-1");
    private static final Instant STARTS_AT = Instant.parse("2030-06-01T10:00:00Z");
    private static final Instant ENDS_AT = Instant.parse("2030-06-01T12:00:00Z");
    private static final List<ActivityItem> ONE_ITEM = List.of(ActivityItem.of("a", 10));

    private static Activity activity(String name, Instant startsAt, Instant endsAt, List<ActivityItem> items) {
        return new Activity(ID, name, startsAt, endsAt, PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, items);
    }

    private static Activity activity(List<ActivityItem> items) {
        return activity("Summer sale", STARTS_AT, ENDS_AT, items);
    }

    private static List<ActivityItem> items(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> ActivityItem.of("sku-" + i, 1)).toList();
    }

    private static void assertRefused(Runnable construction, String field) {
        assertThatThrownBy(construction::run)
                .isInstanceOfSatisfying(InvalidValueException.class, refused -> assertThat(refused.field()).isEqualTo(field));
    }

    @Test
    void givenEndsAtEqualToStartsAt_thenRefused() {
        assertRefused(() -> activity("Sale", STARTS_AT, STARTS_AT, ONE_ITEM), "endsAt");
    }

    @Test
    void givenEndsAtBeforeStartsAt_thenRefused() {
        assertRefused(() -> activity("Sale", STARTS_AT, STARTS_AT.minusMillis(1), ONE_ITEM), "endsAt");
    }

    @Test
    void givenEndsAtOneMillisecondAfterStartsAt_thenAccepted() {
        assertThat(activity("Sale", STARTS_AT, STARTS_AT.plusMillis(1), ONE_ITEM).endsAt()).isEqualTo(STARTS_AT.plusMillis(1));
    }

    @Test
    void givenNoItems_thenRefused() {
        assertRefused(() -> activity(List.of()), "items");
    }

    @Test
    void givenOneOrFiftyItems_thenAccepted() {
        assertThat(activity(items(1)).items()).hasSize(1);
        assertThat(activity(items(50)).items()).hasSize(50);
    }

    @Test
    void givenFiftyOneItems_thenRefused() {
        assertRefused(() -> activity(items(51)), "items");
    }

    @Test
    void givenTheSameSkuTwice_thenRefusedNamingIt() {
        assertThatThrownBy(() -> activity(List.of(ActivityItem.of("a", 1), ActivityItem.of("b", 1), ActivityItem.of("a", 5))))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("repeat skuId a");
    }

    @Test
    void givenNullItem_thenRefused() {
        var withNull = new ArrayList<ActivityItem>();
        withNull.add(null);

        assertRefused(() -> activity(withNull), "items");
    }

    @Test
    void itemsAreCopiedInTheirOrder() {
        var items = new ArrayList<>(List.of(ActivityItem.of("z", 1), ActivityItem.of("a", 2)));
        Activity activity = activity(items);

        items.clear();

        assertThat(activity.items()).extracting(ActivityItem::skuId).containsExactly(new SkuId("z"), new SkuId("a"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "   ", "\t", "\n"})
    void givenBlankName_thenRefused(String name) {
        assertRefused(() -> activity(name, STARTS_AT, ENDS_AT, ONE_ITEM), "name");
    }

    @Test
    void givenNullName_thenRefused() {
        assertRefused(() -> activity(null, STARTS_AT, ENDS_AT, ONE_ITEM), "name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Sale\n2", "Sale\u0000", "Sale\r", "\u001b[31mSale", "Sale\u007f", "Sale\u0085"})
    void givenControlCharactersInName_thenRefused(String name) {
        assertThatThrownBy(() -> activity(name, STARTS_AT, ENDS_AT, ONE_ITEM))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("control characters");
    }

    @Test
    void givenUnicodeAndPunctuationInName_thenAccepted() {
        assertThat(activity("Sommer-Sale: 50 % \u00fcber alles \u2014 \u65e5\u672c \ud83d\ude00", STARTS_AT, ENDS_AT, ONE_ITEM).name())
                .contains("\u65e5\u672c");
    }

    @Test
    void givenNameOfTwoHundredCharacters_thenAcceptedAndOfTwoHundredOne_thenRefused() {
        assertThat(activity("n".repeat(200), STARTS_AT, ENDS_AT, ONE_ITEM).name()).hasSize(200);
        assertRefused(() -> activity("n".repeat(201), STARTS_AT, ENDS_AT, ONE_ITEM), "name");
    }

    @Test
    void givenMissingParts_thenRefusedNamingTheField() {
        assertRefused(() -> new Activity(null, "Sale", STARTS_AT, ENDS_AT, PurchaseLimit.ONE, Duration.ofMinutes(1), ONE_ITEM), "id");
        assertRefused(() -> new Activity(ID, "Sale", null, ENDS_AT, PurchaseLimit.ONE, Duration.ofMinutes(1), ONE_ITEM), "startsAt");
        assertRefused(() -> new Activity(ID, "Sale", STARTS_AT, null, PurchaseLimit.ONE, Duration.ofMinutes(1), ONE_ITEM), "endsAt");
        assertRefused(() -> new Activity(ID, "Sale", STARTS_AT, ENDS_AT, null, Duration.ofMinutes(1), ONE_ITEM), "perUserLimit");
        assertRefused(() -> new Activity(ID, "Sale", STARTS_AT, ENDS_AT, PurchaseLimit.ONE, null, ONE_ITEM), "paymentTimeout");
        assertRefused(() -> new Activity(ID, "Sale", STARTS_AT, ENDS_AT, PurchaseLimit.ONE, Duration.ofMinutes(1), null), "items");
    }

    @Test
    void givenPaymentTimeoutBelowOneSecond_thenRefused() {
        assertRefused(() -> new Activity(ID, "Sale", STARTS_AT, ENDS_AT, PurchaseLimit.ONE, Duration.ofMillis(999), ONE_ITEM),
                "paymentTimeoutSeconds");
        assertThat(new Activity(ID, "Sale", STARTS_AT, ENDS_AT, PurchaseLimit.ONE, Duration.ofSeconds(1), ONE_ITEM)
                .paymentTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void phaseBeforeStartIsNotStarted() {
        Activity activity = activity(ONE_ITEM);

        assertThat(activity.phaseAt(STARTS_AT.minusMillis(1))).isEqualTo(SalePhase.NOT_STARTED);
        assertThat(activity.phaseAt(STARTS_AT.minusNanos(1))).isEqualTo(SalePhase.NOT_STARTED);
    }

    @Test
    void phaseExactlyAtStartIsOpen() {
        assertThat(activity(ONE_ITEM).phaseAt(STARTS_AT)).isEqualTo(SalePhase.OPEN);
    }

    @Test
    void phaseJustBeforeEndIsOpen() {
        assertThat(activity(ONE_ITEM).phaseAt(ENDS_AT.minusNanos(1))).isEqualTo(SalePhase.OPEN);
    }

    @Test
    void phaseExactlyAtEndIsEnded() {
        assertThat(activity(ONE_ITEM).phaseAt(ENDS_AT)).isEqualTo(SalePhase.ENDED);
        assertThat(activity(ONE_ITEM).phaseAt(ENDS_AT.plusSeconds(3600))).isEqualTo(SalePhase.ENDED);
    }

    @Test
    void givenItemWithoutOverride_thenTheActivitysLimitApplies() {
        Activity activity = new Activity(ID, "Sale", STARTS_AT, ENDS_AT, new PurchaseLimit(4), Duration.ofMinutes(1),
                List.of(ActivityItem.of("a", 10), new ActivityItem(new SkuId("b"), 10, 2, 1)));

        assertThat(activity.limitFor(activity.item(new SkuId("a")).orElseThrow())).isEqualTo(new PurchaseLimit(4));
        assertThat(activity.limitFor(activity.item(new SkuId("b")).orElseThrow())).isEqualTo(new PurchaseLimit(2));
    }

    @Test
    void itemLooksUpBySku() {
        Activity activity = activity(List.of(ActivityItem.of("a", 10), ActivityItem.of("b", 5)));

        assertThat(activity.item(new SkuId("b"))).contains(ActivityItem.of("b", 5));
        assertThat(activity.item(new SkuId("c"))).isEmpty();
    }
}
