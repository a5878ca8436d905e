package io.flashsale.bootstrap.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WebConfigurationTest {

    @Test
    void givenAReservationAttemptOrTheHarnessCeiling_whenObservationIsDecided_thenNeitherIsObserved() {
        assertThat(WebConfiguration.isReservationAttempt("POST", "/api/v1/activities/sale-1/reservations")).isTrue();
        assertThat(WebConfiguration.isReservationAttempt("POST", "/harness/ceiling/reservations")).isTrue();
    }

    @Test
    void givenAnyOtherRequest_whenObservationIsDecided_thenItIsObserved() {
        assertThat(WebConfiguration.isReservationAttempt("GET", "/api/v1/activities/sale-1/reservations")).isFalse();
        assertThat(WebConfiguration.isReservationAttempt("POST", "/api/v1/activities")).isFalse();
        assertThat(WebConfiguration.isReservationAttempt("POST", "/api/v1/reservations/a.b/cancel")).isFalse();
        assertThat(WebConfiguration.isReservationAttempt("GET", "/harness/ceiling/reservations")).isFalse();
        assertThat(WebConfiguration.isReservationAttempt("POST", null)).isFalse();
    }
}
