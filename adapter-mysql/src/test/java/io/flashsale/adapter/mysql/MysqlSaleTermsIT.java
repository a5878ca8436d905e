package io.flashsale.adapter.mysql;

import io.flashsale.application.sale.port.out.SaleTermsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A sale's pause and window in its row (ADR 79), on the real server: what a warm-up or a rebuild reads back. */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlSaleTermsIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_terms");
    private static final Instant STARTS_AT = Instant.parse("2030-06-01T10:00:00Z");
    private static final Instant ENDS_AT = Instant.parse("2030-06-01T12:00:00Z");

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    SaleTermsPort terms;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
    }

    private ActivityId newSale() {
        var id = new ActivityId("terms-" + UUID.randomUUID().toString().substring(0, 8));
        activities.add(new Activity(id, "Sale", STARTS_AT, ENDS_AT, PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10))));
        return id;
    }

    private Activity read(ActivityId id) {
        return activities.findById(id).orElseThrow();
    }

    @Test
    void givenANewSale_whenPausedAndResumed_thenEveryReadSeesTheRecordedState() {
        ActivityId id = newSale();
        assertThat(read(id).paused()).as("a sale starts unpaused").isFalse();

        assertThat(terms.recordPaused(id, true)).isTrue();
        assertThat(read(id).paused()).isTrue();
        assertThat(terms.recordPaused(id, true)).as("pausing again is found, not refused").isTrue();
        assertThat(activities.findUnarchived(100)).filteredOn(sale -> sale.id().equals(id))
                .singleElement().extracting(Activity::paused).isEqualTo(true);

        assertThat(terms.recordPaused(id, false)).isTrue();
        assertThat(read(id).paused()).isFalse();
    }

    @Test
    void givenNoSuchSale_whenPaused_thenFalse() {
        assertThat(terms.recordPaused(new ActivityId("no-such-sale"), true)).isFalse();
    }

    @Test
    void givenTheWindowItWasJudgedOn_whenMoved_thenRecordedToTheMillisecond() {
        ActivityId id = newSale();
        Instant later = ENDS_AT.plusSeconds(3600).plusNanos(1_234_567);

        assertThat(terms.recordWindow(id, STARTS_AT, ENDS_AT, STARTS_AT, later)).isTrue();

        assertThat(read(id).endsAt()).isEqualTo(ENDS_AT.plusSeconds(3600).plusMillis(1));
        assertThat(read(id).startsAt()).isEqualTo(STARTS_AT);
    }

    @Test
    void givenAWindowThatMovedMeanwhile_whenMovedFromTheOldOne_thenFalseAndTheOtherMoveStands() {
        ActivityId id = newSale();
        Instant otherEnd = ENDS_AT.plusSeconds(60);
        assertThat(terms.recordWindow(id, STARTS_AT, ENDS_AT, STARTS_AT, otherEnd)).isTrue();

        assertThat(terms.recordWindow(id, STARTS_AT, ENDS_AT, STARTS_AT, ENDS_AT.plusSeconds(3600))).isFalse();

        assertThat(read(id).endsAt()).isEqualTo(otherEnd);
    }

    @Test
    void givenEndsThatMeetInOneMillisecondOrLeaveTheColumnsRange_whenMoved_thenRefusedAsInvalid() {
        ActivityId id = newSale();

        assertThatThrownBy(() -> terms.recordWindow(id, STARTS_AT, ENDS_AT, STARTS_AT, STARTS_AT.plusNanos(500)))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> terms.recordWindow(id, STARTS_AT, ENDS_AT, STARTS_AT,
                Instant.parse("+10000-01-01T00:00:00Z"))).isInstanceOf(InvalidValueException.class);
        assertThat(read(id).endsAt()).isEqualTo(ENDS_AT);
    }
}
