package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.util.List;
import java.util.Optional;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ReconciliationReportsServiceTest {

    @Mock
    private ActivityLookupPort activities;
    @Mock
    private ReconciliationReportsPort reports;

    private ReconciliationReportsService service() {
        return new ReconciliationReportsService(activities, reports);
    }

    @Test
    void givenKeptReports_whenListed_thenTheRepositoryAnswersWithinTheBounds() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        when(reports.findRecent(SALE, 20)).thenReturn(List.of());

        assertThat(service().recent(SALE, 20)).isEmpty();
        assertThatThrownBy(() -> service().recent(SALE, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> service().recent(SALE, 1001)).isInstanceOf(IllegalArgumentException.class);
    }
}
