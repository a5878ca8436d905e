package io.flashsale.application.sale.service;

import io.flashsale.application.sale.model.ListedActivity;
import io.flashsale.application.sale.port.in.ListActivitiesUseCase;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SalePhase;
import io.flashsale.domain.reservation.PurchaseLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ActivityListingServiceTest {

    private static final Instant NOW = Instant.parse("2030-06-01T11:00:00Z");

    @Mock
    ActivityStore activities;

    @Test
    void givenSalesBeforeInAndAfterTheirWindow_thenEachIsListedWithItsPhaseNowAndAtMostTheListedMaximumAreAsked() {
        Activity upcoming = sale("upcoming", NOW.plusSeconds(60), NOW.plusSeconds(120));
        Activity opensNow = sale("opens-now", NOW, NOW.plusSeconds(60));
        Activity endsNow = sale("ends-now", NOW.minusSeconds(60), NOW);
        when(activities.findUnarchived(ListActivitiesUseCase.MAX_LISTED)).thenReturn(List.of(upcoming, opensNow, endsNow));

        List<ListedActivity> listed = new ActivityListingService(activities, Clock.fixed(NOW, ZoneOffset.UTC)).unarchived();

        assertThat(listed).extracting(ListedActivity::phase)
                .containsExactly(SalePhase.NOT_STARTED, SalePhase.OPEN, SalePhase.ENDED);
        assertThat(listed).extracting(ListedActivity::activity).containsExactly(upcoming, opensNow, endsNow);
    }

    private static Activity sale(String id, Instant startsAt, Instant endsAt) {
        return new Activity(new ActivityId(id), "Sale " + id, startsAt, endsAt, PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10)));
    }
}
