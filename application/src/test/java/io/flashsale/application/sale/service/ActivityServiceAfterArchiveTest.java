package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityView;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.BeforeEach;
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
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/** An archived sale lives on in the database of record only: it is read from there and never loaded again. */
@ExtendWith(MockitoExtension.class)
class ActivityServiceAfterArchiveTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final Instant ARCHIVED_AT = Instant.parse("2030-06-01T13:00:00Z");
    private static final List<SkuStock> ON_RECORD = List.of(new SkuStock(new SkuId("a"), new StockLedger(10, 0, 7)));

    @Mock
    private ActivityStore activities;
    @Mock
    private StockReservationPort stock;
    @Mock
    private IdGeneratorPort ids;
    private ActivityService service;

    /** No grace for a load in flight: these tests have none, and a refusal comes at once. */
    @BeforeEach
    void service() {
        service = new ActivityService(activities, stock, ids, Duration.ZERO);
    }

    private static Activity activity() {
        return new Activity(SALE, "Summer sale", Instant.parse("2030-06-01T10:00:00Z"),
                Instant.parse("2030-06-01T12:00:00Z"), PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT,
                List.of(ActivityItem.of("a", 10)));
    }

    private void archived() {
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(activities.archivedAt(SALE)).thenReturn(Optional.of(ARCHIVED_AT));
    }

    @Test
    void givenAnArchivedSale_whenWarmingUp_thenItIsRefusedAndTheHotStoreIsUntouched() {
        archived();

        assertThatThrownBy(() -> service.warmUp(SALE))
                .isInstanceOfSatisfying(ActivityArchivedException.class,
                        refused -> assertThat(refused.activityId()).isEqualTo(SALE));
        verify(stock, never()).warmUp(any());
    }

    @Test
    void givenAnArchivedSale_whenAskingForStock_thenTheLedgersOnRecordInsteadOfNotReady() {
        when(stock.stock(SALE)).thenReturn(Optional.empty());
        archived();
        when(activities.recordedStock(SALE)).thenReturn(Optional.of(ON_RECORD));

        assertThat(service.stock(SALE)).isEqualTo(ON_RECORD);
    }

    @Test
    void givenAnArchivedSale_whenFinding_thenTheActivityWithItsLedgersOnRecordAndTheHotStoreIsNotAsked() {
        archived();
        when(activities.recordedStock(SALE)).thenReturn(Optional.of(ON_RECORD));

        assertThat(service.find(SALE)).contains(new ActivityView(activity(), Optional.of(ON_RECORD)));
        verifyNoInteractions(stock);
    }

    @Test
    void givenASaleNeitherLoadedNorArchived_whenFinding_thenTheRecordIsNotAskedForLedgers() {
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.stock(SALE)).thenReturn(Optional.empty());
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());

        assertThat(service.find(SALE)).contains(new ActivityView(activity(), Optional.empty()));
        verify(activities, never()).recordedStock(any());
    }
}
