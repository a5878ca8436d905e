package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.BuyerArgumentResolver;
import io.flashsale.adapter.web.security.ClientAddressResolver;
import io.flashsale.adapter.web.security.TrustedHeaderBuyerAuthenticator;
import io.flashsale.application.order.port.in.CancelReservationUseCase;
import io.flashsale.application.order.port.in.PayReservationUseCase;
import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.application.reservation.port.in.GetReservationUseCase;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import tools.jackson.databind.json.JsonMapper;

import java.sql.SQLTransientConnectionException;
import java.util.Optional;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A database that does not answer is a 503 the buyer may retry, never a 500: payment, cancellation and the reservation's
 * view through the real controller and the real problem handler, with use cases that meet an unreachable database.
 */
class StoreUnavailableProblemTest {

    private static final String RESERVATION = "/api/v1/reservations/sale-1.0190abc";

    private static StoreUnavailableException databaseDown() {
        return new StoreUnavailableException("the database did not answer",
                new SQLTransientConnectionException("Connection is not available, request timed out after 2000ms"));
    }

    private static MockMvc api(PayReservationUseCase pay, CancelReservationUseCase cancel, GetReservationUseCase view) {
        ReserveStockUseCase reserve = command -> {
            throw databaseDown();
        };
        return MockMvcBuilders.standaloneSetup(new ReservationController(reserve, view, pay, cancel))
                .setControllerAdvice(new ApiExceptionHandler(new CompleteProblemWriter(JsonMapper.builder().build())))
                .setCustomArgumentResolvers(new BuyerArgumentResolver(TrustedHeaderBuyerAuthenticator.withoutSecret()),
                    new ClientAddressResolver(false, false),
                    io.flashsale.adapter.web.security.AttemptOriginResolver.deviceFromHeader("X-Device-Id"))
                .build();
    }

    private final MockMvc downEverywhere = api((buyer, id) -> {
        throw databaseDown();
    }, (buyer, id) -> {
        throw databaseDown();
    }, new GetReservationUseCase() {
        @Override
        public Optional<Reservation> find(BuyerId buyerId, ReservationId id) {
            throw databaseDown();
        }

        @Override
        public Optional<ReservationView> view(BuyerId buyerId, ReservationId id) {
            throw databaseDown();
        }
    });

    @Test
    void givenTheDatabaseDoesNotAnswer_whenPaying_then503UnavailableWithRetryAfter() throws Exception {
        downEverywhere.perform(post(RESERVATION + "/payment").header(BuyerArgumentResolver.HEADER, "alice"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", Problems.RETRY_AFTER_SECONDS))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.code").value("UNAVAILABLE"))
                .andExpect(jsonPath("$.status").value(503))
                .andExpect(jsonPath("$.detail").value("a store this call needs did not answer in time; try again"));
    }

    @Test
    void givenTheDatabaseDoesNotAnswer_whenCancellingOrLookingOrReserving_then503UnavailableNever500() throws Exception {
        downEverywhere.perform(post(RESERVATION + "/cancellation").header(BuyerArgumentResolver.HEADER, "alice"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", Problems.RETRY_AFTER_SECONDS))
                .andExpect(jsonPath("$.code").value("UNAVAILABLE"));
        downEverywhere.perform(get(RESERVATION).header(BuyerArgumentResolver.HEADER, "alice"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.code").value("UNAVAILABLE"));
        downEverywhere.perform(post("/api/v1/activities/sale-1/reservations").header(BuyerArgumentResolver.HEADER, "alice")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"requestId\":\"r-1\",\"items\":[{\"skuId\":\"sku-1\",\"quantity\":1}]}"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.code").value("UNAVAILABLE"));
    }

    @Test
    void givenAFailureThatIsNoOutage_whenPaying_thenStill500Internal() throws Exception {
        MockMvc broken = api((buyer, id) -> {
            throw new IllegalStateException("a bug");
        }, (buyer, id) -> {
            throw new IllegalStateException("a bug");
        }, null);

        broken.perform(post(RESERVATION + "/payment").header(BuyerArgumentResolver.HEADER, "alice"))
                .andExpect(status().isInternalServerError())
                .andExpect(jsonPath("$.code").value("INTERNAL"))
                .andExpect(header().doesNotExist("Retry-After"));
    }
}
