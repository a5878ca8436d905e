package io.flashsale.application.slice.service;

import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.slice.model.SlicePlacement;
import io.flashsale.application.slice.port.out.SlicePlacementPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class SlicePlacementServiceTest {

    private static final ActivityId SALE = new ActivityId("sale");
    private static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");

    @Mock
    private ActivityLookupPort activities;
    @Mock
    private SlicePlacementPort placement;

    @Test
    void theSalesSlicesArePlacedByTheCountTheSaleWasCutInto() {
        Activity sale = new Activity(SALE, "Flash", NOW, NOW.plusSeconds(60), new PurchaseLimit(1),
                Duration.ofMinutes(15), List.of(new ActivityItem(new SkuId("a"), 10, null, 1)), false,
                new SaleSlices(4));
        when(activities.findById(SALE)).thenReturn(Optional.of(sale));
        when(placement.placementOf(SALE, new SaleSlices(4))).thenReturn(new SlicePlacement(4, 3, 3));

        assertThat(new SlicePlacementService(activities, placement).placement(SALE))
                .isEqualTo(new SlicePlacement(4, 3, 3));
    }

    @Test
    void anUnknownSaleIsNotFound_andTheStoreIsNotAsked() {
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> new SlicePlacementService(activities, placement).placement(SALE))
                .isInstanceOf(ActivityNotFoundException.class);
        verifyNoInteractions(placement);
    }
}
