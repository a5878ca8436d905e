package io.flashsale.application.slice.service;

import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;
import org.mockito.junit.jupiter.MockitoSettings;
import org.mockito.quality.Strictness;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
@MockitoSettings(strictness = Strictness.LENIENT)
class StockTransferServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-11T00:00:00Z");
    private static final ActivityId SALE = new ActivityId("double-11");
    private static final SkuId SKU = new SkuId("phone");
    private static final Activity THREE_SLICES = new Activity(SALE, "Double 11", NOW, NOW.plusSeconds(3600),
            new PurchaseLimit(2), Duration.ofMinutes(15), List.of(new ActivityItem(SKU, 30, null, 1)), false,
            new SaleSlices(3));

    @Mock
    private ActivityStore activities;

    private final InMemoryTransfers transfers = new InMemoryTransfers();
    private InMemorySliceStock slices;
    private StockTransferService service;

    @BeforeEach
    void setUp() {
        slices = new InMemorySliceStock(10, 10, 10);
        when(activities.findById(SALE)).thenReturn(Optional.of(THREE_SLICES));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
        service = new StockTransferService(activities, activities, transfers, slices,
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void aTransferTakesFromTheSourceCreditsTheTargetAndIsDone() {
        StockTransfer done = service.transfer(SALE, SKU, 0, 2, 4);

        assertThat(done.state()).isEqualTo(TransferState.DONE);
        assertThat(done.moved()).isEqualTo(4);
        assertThat(slices.available(0)).isEqualTo(6);
        assertThat(slices.available(2)).isEqualTo(14);
        assertThat(transfers.findById(done.id())).contains(done);
    }

    @Test
    void givenFewerAvailableThanAsked_thenWhatTheSourceHasMoves() {
        service.transfer(SALE, SKU, 1, 0, 7);

        StockTransfer second = service.transfer(SALE, SKU, 1, 0, 7);

        assertThat(second.moved()).isEqualTo(3);
        assertThat(slices.available(1)).isZero();
        assertThat(slices.available(0)).isEqualTo(20);
    }

    @Test
    void givenAnEmptySource_thenTheTransferIsDoneAndTheTargetIsNeverAsked() {
        InMemorySliceStock empty = new InMemorySliceStock(0, 5, 5);
        StockTransferService onEmpty = new StockTransferService(activities, activities, transfers, empty,
                Clock.fixed(NOW, ZoneOffset.UTC));

        StockTransfer done = onEmpty.transfer(SALE, SKU, 0, 1, 3);

        assertThat(done.state()).isEqualTo(TransferState.DONE);
        assertThat(done.moved()).isZero();
        assertThat(empty.credits).isZero();
        assertThat(empty.sum()).isEqualTo(10);
    }

    @Test
    void givenATargetNotLoaded_thenTheTransferStaysTakenUntilTheSweepCreditsIt() {
        slices.unload(2);

        StockTransfer taken = service.transfer(SALE, SKU, 0, 2, 4);
        assertThat(taken.state()).isEqualTo(TransferState.TAKEN);
        assertThat(slices.sum()).as("four units in transit").isEqualTo(26);
        assertThat(service.finishUnfinished()).isZero();

        slices.load(2);
        assertThat(service.finishUnfinished()).isEqualTo(1);
        assertThat(transfers.findById(taken.id()).orElseThrow().state()).isEqualTo(TransferState.DONE);
        assertThat(slices.sum()).isEqualTo(30);
        assertThat(service.finishUnfinished()).as("nothing left to finish").isZero();
        assertThat(slices.sum()).isEqualTo(30);
    }

    @Test
    void givenRedisDown_thenTheTransferStaysRequestedAndTheSweepFinishesItLater() {
        slices.down(true);

        StockTransfer requested = service.transfer(SALE, SKU, 0, 1, 5);
        assertThat(requested.state()).isEqualTo(TransferState.REQUESTED);

        slices.down(false);
        assertThat(service.finishUnfinished()).isEqualTo(1);
        assertThat(slices.available(0)).isEqualTo(5);
        assertThat(slices.available(1)).isEqualTo(15);
    }

    @Test
    void givenASourceThatLostTheSku_thenItsTransferWaitsAndTheSweepGoesOnWithTheNext() {
        slices.drift(1);
        StockTransfer stuck = service.transfer(SALE, SKU, 1, 0, 2);
        slices.down(true);
        StockTransfer later = service.transfer(SALE, SKU, 2, 0, 3);
        slices.down(false);

        assertThat(stuck.state()).isEqualTo(TransferState.REQUESTED);
        assertThat(service.finishUnfinished()).isEqualTo(1);
        assertThat(transfers.findById(later.id()).orElseThrow().state()).isEqualTo(TransferState.DONE);
        assertThat(transfers.findById(stuck.id()).orElseThrow().state()).isEqualTo(TransferState.REQUESTED);
        assertThat(slices.available(0)).isEqualTo(13);
    }

    @Test
    void givenMoreThanAPageOfTransfersThatCannotMove_thenTheSweepStillFinishesTheOnesBehindThem() {
        slices.unload(2);
        for (int i = 0; i < StockTransferService.SWEEP_PAGE + 5; i++) {
            service.transfer(SALE, SKU, 2, 0, 1);
        }
        slices.down(true);
        StockTransfer behind = service.transfer(SALE, SKU, 1, 0, 4);
        slices.down(false);

        assertThat(service.finishUnfinished()).isEqualTo(1);
        assertThat(transfers.findById(behind.id()).orElseThrow().finished()).isTrue();
        assertThat(slices.available(0)).isEqualTo(14);
    }

    @Test
    void givenACrashAfterTheTakeBeforeItsRow_thenTheSweepsRepeatedTakeGivesNothingMoreAndTheUnitsArriveOnce() {
        transfers.failNextAdvances(1);

        StockTransfer left = service.transfer(SALE, SKU, 0, 1, 5);
        assertThat(left.state()).isEqualTo(TransferState.REQUESTED);
        assertThat(slices.available(0)).as("the source gave already").isEqualTo(5);

        assertThat(service.finishUnfinished()).isEqualTo(1);
        assertThat(slices.available(0)).isEqualTo(5);
        assertThat(slices.available(1)).isEqualTo(15);
        assertThat(slices.sum()).isEqualTo(30);
    }

    @Test
    void givenACrashAfterTheCreditBeforeItsRow_thenTheSweepsRepeatedCreditAddsNothing() {
        transfers.failNextAdvances(0);
        StockTransfer opened = transfers.open(SALE, SKU, 0, 1, 5, NOW);
        StockTransfer taken = opened.taken(slices.take(new SaleSlice(SALE, 0,
                THREE_SLICES.slices()), SKU, opened.id(), 5).orElseThrow());
        transfers.advance(opened, taken);
        slices.credit(new SaleSlice(SALE, 1, THREE_SLICES.slices()), SKU, opened.id(), 5);

        assertThat(service.finishUnfinished()).isEqualTo(1);
        assertThat(slices.available(1)).isEqualTo(15);
        assertThat(slices.sum()).isEqualTo(30);
    }

    @Test
    void givenAnotherRunnerMovedTheTransferOn_thenThisOneCarriesOnFromWhatTheDatabaseHolds() {
        // The other runner's take was answered by the same transfer id, so it recorded the same units.
        transfers.anotherRunnerStepsFirst(row -> row.taken(3));

        StockTransfer done = service.transfer(SALE, SKU, 0, 2, 3);

        assertThat(done.state()).isEqualTo(TransferState.DONE);
        assertThat(slices.takes).isEqualTo(1);
        assertThat(slices.available(0)).isEqualTo(7);
        assertThat(slices.available(2)).isEqualTo(13);
    }

    @Test
    void givenASliceTheSaleDoesNotHave_thenTheTransferIsRefusedBeforeAnythingIsRecorded() {
        assertThatThrownBy(() -> service.transfer(SALE, SKU, 0, 3, 1))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("to");
        assertThatThrownBy(() -> service.transfer(SALE, SKU, -1, 1, 1))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("from");
        assertThatThrownBy(() -> service.transfer(SALE, SKU, 1, 1, 1)).isInstanceOf(InvalidValueException.class);
        assertThat(transfers.findByActivity(SALE)).isEmpty();
    }

    @Test
    void givenAnUnknownSaleSkuOrAnArchivedSale_thenTheTransferIsRefused() {
        ActivityId unknown = new ActivityId("nope");
        when(activities.findById(unknown)).thenReturn(Optional.empty());
        assertThatThrownBy(() -> service.transfer(unknown, SKU, 0, 1, 1))
                .isInstanceOf(ActivityNotFoundException.class);
        assertThatThrownBy(() -> service.transfer(SALE, new SkuId("tablet"), 0, 1, 1))
                .isInstanceOf(SkuNotFoundException.class);

        when(activities.archivedAt(SALE)).thenReturn(Optional.of(NOW));
        assertThatThrownBy(() -> service.transfer(SALE, SKU, 0, 1, 1))
                .isInstanceOf(ActivityArchivedException.class);
        assertThat(transfers.findByActivity(SALE)).isEmpty();
    }
}
