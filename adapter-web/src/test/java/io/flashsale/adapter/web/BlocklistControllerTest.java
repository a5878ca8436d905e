package io.flashsale.adapter.web;

import io.flashsale.adapter.web.security.AdminAttempts;
import io.flashsale.adapter.web.security.AdminAuthorizationInterceptor;
import io.flashsale.adapter.web.security.AdminCredentials;
import io.flashsale.adapter.web.security.AdminGate;
import io.flashsale.adapter.web.security.AdminOperatorArgumentResolver;
import io.flashsale.adapter.web.security.AdminToken;
import io.flashsale.application.blocklist.port.in.ManageBlocklistUseCase;
import io.flashsale.domain.risk.BlockEntry;
import io.flashsale.domain.risk.BlockKind;
import io.flashsale.domain.risk.BlocklistChange;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The blocklist's admin API in front of its use case; each change names the operator whose token made it, never a
 * declared one (the token check itself is the interceptor's, tested on its own).
 */
class BlocklistControllerTest {

    private static final Instant AT = Instant.parse("2026-12-05T01:00:00Z");
    private static final String ALICE_TOKEN = "alices-admin-token";
    private static final String ADMIN_TOKEN = "the-admin-token";

    /** A use case that lists what it is given, once, and records the operators it was told. */
    private static final class ListedOnce implements ManageBlocklistUseCase {
        final List<BlockEntry> entries = new ArrayList<>();
        final List<String> operators = new ArrayList<>();

        @Override
        public Optional<BlockEntry> block(BlockKind kind, String value, String reason, String operator) {
            BlockEntry entry = new BlockEntry(kind, value, reason, operator, AT);
            operators.add(operator);
            if (entries.stream().anyMatch(listed -> listed.kind() == kind && listed.value().equals(entry.value()))) {
                return Optional.empty();
            }
            entries.add(entry);
            return Optional.of(entry);
        }

        @Override
        public boolean unblock(BlockKind kind, String value, String operator) {
            operators.add(operator);
            return entries.removeIf(entry -> entry.kind() == kind
                    && entry.value().equals(BlockEntry.canonical(kind, value)));
        }

        @Override
        public List<BlockEntry> entries() {
            return entries;
        }

        @Override
        public List<BlocklistChange> changes() {
            return List.of();
        }
    }

    private final ListedOnce blocklist = new ListedOnce();
    private final MockMvc api = MockMvcBuilders.standaloneSetup(new BlocklistController(blocklist))
            .setControllerAdvice(new ApiExceptionHandler(new CompleteProblemWriter(JsonMapper.builder().build())))
            .addInterceptors(new AdminAuthorizationInterceptor(new AdminGate(AdminCredentials.of(Map.of(
                    "alice", AdminToken.of(ALICE_TOKEN), "admin", AdminToken.of(ADMIN_TOKEN))),
                    AdminAttempts.unlimited())))
            .setCustomArgumentResolvers(new AdminOperatorArgumentResolver())
            .defaultRequest(get("/").header("Authorization", "Bearer " + ADMIN_TOKEN))
            .build();

    private static String body(String kind, String value) {
        return "{\"kind\":\"" + kind + "\",\"value\":\"" + value + "\",\"reason\":\"bot\"}";
    }

    @Test
    void anEntryIsAddedOnceInItsCanonicalFormAndRemovedInAnySpelling() throws Exception {
        api.perform(post("/api/v1/admin/blocklist").contentType(MediaType.APPLICATION_JSON)
                        .header("Authorization", "Bearer " + ALICE_TOKEN).header("X-Operator", "mallory")
                        .content(body("address", "198.51.100.9/24")))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.kind").value("address"))
                .andExpect(jsonPath("$.value").value("198.51.100.0/24"))
                .andExpect(jsonPath("$.operator").value("alice"));
        api.perform(post("/api/v1/admin/blocklist").contentType(MediaType.APPLICATION_JSON)
                        .content(body("address", "198.51.100.0/24")))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.code").value("BLOCKLIST_ENTRY_EXISTS"));

        api.perform(delete("/api/v1/admin/blocklist").param("kind", "address").param("value", "198.51.100.200/24"))
                .andExpect(status().isNoContent());
        api.perform(delete("/api/v1/admin/blocklist").param("kind", "address").param("value", "198.51.100.0/24"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.code").value("BLOCKLIST_ENTRY_NOT_FOUND"));
        assertThat(blocklist.operators).containsExactly("alice", "admin", "admin", "admin");
    }

    @Test
    void aValueNotOfItsKindOrAnUnknownKindIsA400WithNothingListed() throws Exception {
        for (String bad : List.of(body("address", "203.0.113.0/33"), body("address", "example.com"),
                body("buyer", "a.b"), body("planet", "earth"), body("device", "has space"))) {
            api.perform(post("/api/v1/admin/blocklist").contentType(MediaType.APPLICATION_JSON).content(bad))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.code").value("VALIDATION"));
        }
        api.perform(delete("/api/v1/admin/blocklist").param("kind", "planet").param("value", "earth"))
                .andExpect(status().isBadRequest());
        assertThat(blocklist.entries).isEmpty();
    }
}
