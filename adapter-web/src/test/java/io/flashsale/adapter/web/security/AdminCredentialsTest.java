package io.flashsale.adapter.web.security;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminCredentialsTest {

    private static AdminCredentials oliviaAndPeter() {
        Map<String, AdminToken> operators = new LinkedHashMap<>();
        operators.put("olivia", AdminToken.of("olivias-token"));
        operators.put("peter", AdminToken.of("peters-token"));
        return AdminCredentials.of(operators);
    }

    @Test
    void givenTwoOperators_whenEachShowsTheirToken_thenEachIsNamedByTheirOwn() {
        AdminCredentials credentials = oliviaAndPeter();

        assertThat(credentials.operatorOf("olivias-token")).contains("olivia");
        assertThat(credentials.operatorOf("peters-token")).contains("peter");
    }

    @Test
    void givenAnyOtherCandidate_thenNoOperator() {
        AdminCredentials credentials = oliviaAndPeter();

        for (String candidate : new String[] {null, "", "olivia", "peter", "olivias-token ", "OLIVIAS-TOKEN"}) {
            assertThat(credentials.operatorOf(candidate)).as("candidate %s", candidate).isEmpty();
        }
    }

    @Test
    void givenNoOperatorOrAMalformedName_thenRefused() {
        assertThatThrownBy(() -> AdminCredentials.of(Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdminCredentials.of(Map.of("two words", AdminToken.of("t"))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTextShowsNamesNeverTokens() {
        assertThat(oliviaAndPeter().toString()).contains("olivia", "peter").doesNotContain("token");
    }
}
