package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.application.sale.model.ActivityView;
import io.flashsale.application.sale.model.CreateActivityCommand;
import io.flashsale.application.sale.model.SaleHasReservationsException;
import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ActivityServiceTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final Instant STARTS_AT = Instant.parse("2030-06-01T10:00:00Z");
    private static final Instant ENDS_AT = Instant.parse("2030-06-01T12:00:00Z");
    private static final List<SkuStock> LEDGERS = List.of(new SkuStock(new SkuId("a"), new StockLedger(10, 2, 1)));

    @Mock
    private ActivityStore activities;
    @Mock
    private StockReservationPort stock;
    @Mock
    private IdGeneratorPort ids;
    @Mock
    private ActivityRecordsPort records;
    private ActivityService service;

    /** No grace for a load in flight: these tests have none, and a refusal comes at once. */
    @BeforeEach
    void service() {
        service = new ActivityService(activities, stock, ids, Duration.ZERO);
    }

    private static CreateActivityCommand command(ActivityId id) {
        return new CreateActivityCommand(id, "Summer sale", STARTS_AT, ENDS_AT, new PurchaseLimit(2), null,
                List.of(ActivityItem.of("a", 10)));
    }

    private static Activity activity() {
        return command(SALE).toActivity(SALE);
    }

    @Test
    void givenNoId_whenCreating_thenTheGeneratedIdIsUsedAndTheActivityIsStored() {
        when(ids.next()).thenReturn("01JGENERATED");

        Activity created = service.create(command(null));

        assertThat(created.id()).isEqualTo(new ActivityId("01JGENERATED"));
        ArgumentCaptor<Activity> stored = ArgumentCaptor.forClass(Activity.class);
        verify(activities).add(stored.capture());
        assertThat(stored.getValue()).isEqualTo(created);
        assertThat(created.perUserLimit()).isEqualTo(new PurchaseLimit(2));
        assertThat(created.paymentTimeout()).isEqualTo(Activity.DEFAULT_PAYMENT_TIMEOUT);
    }

    @Test
    void givenId_whenCreating_thenItIsKeptAndNoIdIsGenerated() {
        Activity created = service.create(command(SALE));

        assertThat(created).isEqualTo(activity());
        verify(activities).add(activity());
        verifyNoInteractions(ids);
    }

    @Test
    void givenSlices_whenCreating_thenTheSaleIsStoredInThatManySlices_andWithoutThemInOne() {
        var command = new CreateActivityCommand(SALE, "Double 11", STARTS_AT, ENDS_AT, null, null,
                List.of(ActivityItem.of("a", 3000)), new SaleSlices(3));

        assertThat(service.create(command).slices()).isEqualTo(new SaleSlices(3));
        assertThat(command(SALE).slices()).isEqualTo(SaleSlices.ONE);
        assertThat(new CreateActivityCommand(SALE, "Sale", STARTS_AT, ENDS_AT, null, null,
                List.of(ActivityItem.of("a", 1)), null).slices()).isEqualTo(SaleSlices.ONE);
        verify(activities).add(argThat(stored -> stored.slices().count() == 3));
    }

    @Test
    void givenTakenId_whenCreating_thenActivityAlreadyExistsPropagates() {
        doThrow(new ActivityAlreadyExistsException(SALE)).when(activities).add(any());

        assertThatThrownBy(() -> service.create(command(SALE)))
                .isInstanceOfSatisfying(ActivityAlreadyExistsException.class,
                        refused -> assertThat(refused.activityId()).isEqualTo(SALE));
    }

    @Test
    void creatingDoesNotTouchTheHotStore() {
        service.create(command(SALE));

        verifyNoInteractions(stock);
    }

    @Test
    void givenUnknownActivity_whenWarmingUp_thenActivityNotFoundAndTheStoreIsUntouched() {
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service.warmUp(SALE))
                .isInstanceOfSatisfying(ActivityNotFoundException.class,
                        refused -> assertThat(refused.activityId()).isEqualTo(SALE));
        verifyNoInteractions(stock);
    }

    @Test
    void givenActivity_whenWarmingUp_thenTheStoreLoadsItAndItsLedgersAreReturned() {
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.warmUp(activity())).thenReturn(LEDGERS);

        assertThat(service.warmUp(SALE)).isEqualTo(LEDGERS);
    }

    @Test
    void givenASaleLoadedBeforeThatTheStoreLost_whenWarmingUp_thenSaleHasReservationsAndNothingIsLoaded() {
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.stock(SALE)).thenReturn(Optional.empty());
        when(activities.wasLoaded(SALE)).thenReturn(true);

        assertThatThrownBy(() -> service.warmUp(SALE))
                .isInstanceOfSatisfying(SaleHasReservationsException.class,
                        refused -> assertThat(refused.activityId()).isEqualTo(SALE));
        verify(stock, never()).warmUp(any());
        verify(activities, never()).recordLoad(any());
    }

    /** The schedule recorded the load and its script has not run yet: the sale is being loaded, not lost. */
    @Test
    void givenAnotherWarmUpBetweenItsRecordAndItsScript_whenWarmingUp_thenItWaitsForThatLoadAndAnswersIt() {
        service = new ActivityService(activities, stock, ids, Duration.ofSeconds(5));
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.stock(SALE)).thenReturn(Optional.empty(), Optional.empty(), Optional.of(LEDGERS));
        when(activities.wasLoaded(SALE)).thenReturn(true);
        when(stock.warmUp(activity())).thenReturn(LEDGERS);

        assertThat(service.warmUp(SALE)).isEqualTo(LEDGERS);
        verify(activities).recordLoad(SALE);
    }

    @Test
    void givenASaleLostForLongerThanTheGrace_whenWarmingUp_thenStillRefusedAndNothingIsLoaded() {
        service = new ActivityService(activities, stock, ids, Duration.ofMillis(200));
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.stock(SALE)).thenReturn(Optional.empty());
        when(activities.wasLoaded(SALE)).thenReturn(true);

        assertThatThrownBy(() -> service.warmUp(SALE)).isInstanceOf(SaleHasReservationsException.class);
        verify(stock, never()).warmUp(any());
        verify(activities, never()).recordLoad(any());
    }

    @Test
    void givenASaleNeverLoaded_whenWarmingUp_thenItsLoadIsRecordedBeforeTheStoreLoadsIt() {
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.warmUp(activity())).thenReturn(LEDGERS);

        service.warmUp(SALE);

        InOrder order = inOrder(activities, stock);
        order.verify(activities).recordLoad(SALE);
        order.verify(stock).warmUp(activity());
    }

    @Test
    void givenWarmedUpActivity_whenAskingForStock_thenTheStoresLedgersWithoutAskingTheDatabase() {
        when(stock.stock(SALE)).thenReturn(Optional.of(LEDGERS));

        assertThat(service.stock(SALE)).isEqualTo(LEDGERS);
        verifyNoInteractions(activities);
    }

    @Test
    void givenUnknownActivity_whenAskingForStock_thenActivityNotFound() {
        when(stock.stock(SALE)).thenReturn(Optional.empty());
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service.stock(SALE)).isInstanceOf(ActivityNotFoundException.class);
    }

    @Test
    void givenActivityNotWarmedUp_whenAskingForStock_thenActivityNotReady() {
        when(stock.stock(SALE)).thenReturn(Optional.empty());
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));

        assertThatThrownBy(() -> service.stock(SALE))
                .isInstanceOfSatisfying(ActivityNotReadyException.class,
                        refused -> assertThat(refused.activityId()).isEqualTo(SALE));
    }

    @Test
    void givenUnknownActivity_whenFinding_thenEmptyAndTheStoreIsNotAsked() {
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThat(service.find(SALE)).isEmpty();
        verify(stock, never()).stock(any());
    }

    @Test
    void givenActivityNotWarmedUp_whenFinding_thenTheActivityWithoutStock() {
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.stock(SALE)).thenReturn(Optional.empty());

        assertThat(service.find(SALE)).contains(new ActivityView(activity(), Optional.empty()));
    }

    @Test
    void givenWarmedUpActivity_whenFinding_thenTheActivityWithItsLiveLedgers() {
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));
        when(stock.stock(SALE)).thenReturn(Optional.of(LEDGERS));

        assertThat(service.find(SALE)).contains(new ActivityView(activity(), Optional.of(LEDGERS)));
    }

    @Test
    void givenInvalidCommand_thenItIsRefusedBeforeTheServiceIsReached() {
        assertThatThrownBy(() -> new CreateActivityCommand(null, "Sale", ENDS_AT, STARTS_AT, null, Duration.ofMinutes(1),
                List.of(ActivityItem.of("a", 1)))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenACreation_whenTheSaleIsStored_thenEveryInstanceIsToldAfterwards() {
        SaleChangesPort changes = mock(SaleChangesPort.class);
        service = new ActivityService(activities, records, stock, ids, Duration.ZERO, changes);

        service.create(command(SALE));

        InOrder order = inOrder(activities, changes);
        order.verify(activities).add(activity());
        order.verify(changes).announce(SALE);
    }

    @Test
    void givenATakenId_whenCreating_thenNothingIsAnnounced() {
        SaleChangesPort changes = mock(SaleChangesPort.class);
        service = new ActivityService(activities, records, stock, ids, Duration.ZERO, changes);
        doThrow(new ActivityAlreadyExistsException(SALE)).when(activities).add(any());

        assertThatThrownBy(() -> service.create(command(SALE))).isInstanceOf(ActivityAlreadyExistsException.class);
        verifyNoInteractions(changes);
    }

    @Test
    void givenRecordsInFrontOfTheRepository_whenReading_thenOnlyTheRecordsAndTheHotStoreAreAsked() {
        service = new ActivityService(activities, records, stock, ids, Duration.ZERO, SaleChangesPort.none());
        when(records.find(SALE)).thenReturn(Optional.of(new ActivityRecord(activity(), Optional.empty())));
        when(stock.stock(SALE)).thenReturn(Optional.of(LEDGERS));

        assertThat(service.find(SALE)).contains(new ActivityView(activity(), Optional.of(LEDGERS)));
        verifyNoInteractions(activities);
    }

    @Test
    void givenAnArchivedRecord_whenReading_thenItsLedgersOnRecordAndTheHotStoreIsNotAsked() {
        service = new ActivityService(activities, records, stock, ids, Duration.ZERO, SaleChangesPort.none());
        when(records.find(SALE)).thenReturn(Optional.of(new ActivityRecord(activity(), Optional.of(LEDGERS))));

        assertThat(service.find(SALE)).contains(new ActivityView(activity(), Optional.of(LEDGERS)));
        verifyNoInteractions(stock, activities);
    }

    @Test
    void givenNoLedgersInTheHotStore_whenReadingStock_thenTheRecordsDecideUnknownOrNotReady() {
        service = new ActivityService(activities, records, stock, ids, Duration.ZERO, SaleChangesPort.none());
        ActivityId unknown = new ActivityId("nowhere");
        when(stock.stock(any())).thenReturn(Optional.empty());
        when(records.find(unknown)).thenReturn(Optional.empty());
        when(records.find(SALE)).thenReturn(Optional.of(new ActivityRecord(activity(), Optional.empty())));

        assertThatThrownBy(() -> service.stock(unknown)).isInstanceOf(ActivityNotFoundException.class);
        assertThatThrownBy(() -> service.stock(SALE)).isInstanceOf(ActivityNotReadyException.class);
        verifyNoInteractions(activities);
    }
}
