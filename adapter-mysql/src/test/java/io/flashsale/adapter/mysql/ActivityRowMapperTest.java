package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mapstruct.factory.Mappers;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActivityRowMapperTest {

    private final ActivityRowMapper mapper = Mappers.getMapper(ActivityRowMapper.class);

    private final Activity activity = new Activity(new ActivityId("sale-1"), "Sale",
            Instant.parse("2026-12-01T10:00:00.123456Z"), Instant.parse("2026-12-01T11:00:00Z"),
            new PurchaseLimit(3), Duration.ofMinutes(2), List.of(
                    new ActivityItem(new SkuId("b"), 5, 2, 4),
                    new ActivityItem(new SkuId("a"), 0, null, 1)));

    @Test
    void givenAnActivity_whenMappedToRows_thenColumnsHoldPlainValuesAndItemsAreNumberedInOrder() {
        assertThat(mapper.toRow(activity)).isEqualTo(new ActivityRow("sale-1", "Sale",
                Instant.parse("2026-12-01T10:00:00.123Z"), Instant.parse("2026-12-01T11:00:00Z"), 3, 120, false, 1));
        assertThat(mapper.toItemRows(activity)).containsExactly(
                new ActivityItemRow("sale-1", "b", 0, 5, 2, 4),
                new ActivityItemRow("sale-1", "a", 1, 0, null, 1));
    }

    @Test
    void givenRows_whenMappedToTheDomain_thenTheActivityIsRebuiltThroughItsConstructors() {
        ActivityRow row = new ActivityRow("sale-1", "Sale", Instant.parse("2026-12-01T10:00:00.123Z"),
                Instant.parse("2026-12-01T11:00:00Z"), 3, 120, true, 3);

        Activity rebuilt = mapper.toActivity(row, mapper.toItemRows(activity));

        assertThat(rebuilt.items()).isEqualTo(activity.items());
        assertThat(rebuilt.startsAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00.123Z"));
        assertThat(rebuilt.perUserLimit()).isEqualTo(new PurchaseLimit(3));
        assertThat(rebuilt.paymentTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(rebuilt.paused()).isTrue();
        assertThat(rebuilt.slices()).isEqualTo(new SaleSlices(3));
    }

    @Test
    void givenASaleInSlices_whenMappedToARow_thenTheRowHoldsTheSliceCount() {
        Activity sliced = new Activity(activity.id(), activity.name(), activity.startsAt(), activity.endsAt(),
                activity.perUserLimit(), activity.paymentTimeout(), activity.items(), false, new SaleSlices(64));

        assertThat(mapper.toRow(sliced).slices()).isEqualTo(64);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 65})
    void givenARowWithASliceCountOutsideOneTo64_whenMappedToTheDomain_thenTheDomainRefusesIt(int slices) {
        ActivityRow row = new ActivityRow("sale-1", "Sale", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z"), 3, 120, false, slices);

        assertThatThrownBy(() -> mapper.toActivity(row, mapper.toItemRows(activity)))
                .isInstanceOfSatisfying(InvalidValueException.class, e -> assertThat(e.field()).isEqualTo("slices"));
    }

    @Test
    void givenARowBreakingADomainRule_whenMappedToTheDomain_thenTheDomainRefusesIt() {
        ActivityRow row = new ActivityRow("sale-1", "Sale", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z"), 0, 120, false, 1);

        assertThatThrownBy(() -> mapper.toActivity(row, mapper.toItemRows(activity)))
                .isInstanceOf(InvalidValueException.class);
    }
}
