package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.BuyerArgumentResolver;
import io.flashsale.adapter.web.security.ClientAddressResolver;
import io.flashsale.adapter.web.security.TrustedHeaderBuyerAuthenticator;
import io.flashsale.application.shared.port.out.StoreContentionException;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import tools.jackson.databind.json.JsonMapper;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A change that met another one on the same rows (a deadlock, a lock wait that timed out) is a 503 {@code BUSY} the
 * buyer may retry, never a 500 (ADR 53); the real lock wait on MariaDB is bootstrap's {@code LockContentionIT}.
 */
class StoreContentionProblemTest {

    private static final String RESERVATION = "/api/v1/reservations/sale-1.0190abc";

    private static StoreContentionException contention() {
        return new StoreContentionException("lock contention", new IllegalStateException("Lock wait timeout exceeded"));
    }

    private final MockMvc api = MockMvcBuilders.standaloneSetup(new ReservationController(command -> {
                throw contention();
            }, null, (buyer, id) -> {
                throw contention();
            }, (buyer, id) -> {
                throw contention();
            }))
            .setControllerAdvice(new ApiExceptionHandler(new CompleteProblemWriter(JsonMapper.builder().build())))
            .setCustomArgumentResolvers(new BuyerArgumentResolver(TrustedHeaderBuyerAuthenticator.withoutSecret()),
                    new ClientAddressResolver(false, false),
                    io.flashsale.adapter.web.security.AttemptOriginResolver.deviceFromHeader("X-Device-Id"))
            .build();

    @Test
    void givenLockContention_whenPayingCancellingOrReserving_then503BusyWithRetryAfter() throws Exception {
        for (String path : new String[] {RESERVATION + "/payment", RESERVATION + "/cancellation"}) {
            api.perform(post(path).header(BuyerArgumentResolver.HEADER, "alice"))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(header().string("Retry-After", Problems.RETRY_AFTER_SECONDS))
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.code").value("BUSY"))
                    .andExpect(jsonPath("$.status").value(503));
        }
        api.perform(post("/api/v1/activities/sale-1/reservations").header(BuyerArgumentResolver.HEADER, "alice")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"requestId\":\"r-1\",\"items\":[{\"skuId\":\"sku-1\",\"quantity\":1}]}"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.code").value("BUSY"));
    }
}
