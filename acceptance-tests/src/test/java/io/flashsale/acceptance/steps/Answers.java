package io.flashsale.acceptance.steps;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** How the steps read the service's answers: accepted reservations and refusals with their stable codes. */
final class Answers {

    static final int ACCEPTED = 202;
    /** A reservation the buyer holds: still in the hot store only, or already an order in the shop's books. */
    static final Set<String> HELD_STATUSES = Set.of("RESERVED", "ORDERED");

    private Answers() {
    }

    static boolean isAccepted(ApiAnswer answer) {
        return answer.status() == ACCEPTED;
    }

    /** Checks everything an accepted reservation promises and returns its id. */
    static String assertAccepted(ApiAnswer answer, String saleId) {
        assertThat(answer.status()).as("accepted: %s", answer.describe()).isEqualTo(ACCEPTED);
        String id = answer.text("reservationId");
        assertThat(id).as("reservation id in %s", answer.describe()).isNotBlank();
        assertThat(answer.text("activityId")).as("sale of the reservation").isEqualTo(saleId);
        // A repeated request answers with the reservation as it stands now, which may already be an order.
        assertThat(answer.text("status")).as("status of the reservation: %s", answer.describe()).isIn(HELD_STATUSES);
        assertThat(answer.header("Location")).as("where the reservation lives")
                .hasValueSatisfying(location -> assertThat(location).endsWith(FlashsaleApi.RESERVATIONS + "/" + id));
        return id;
    }

    static void assertRefused(ApiAnswer answer, int status, String code) {
        assertThat(answer.status()).as("refused: %s", answer.describe()).isEqualTo(status);
        assertThat(answer.code()).as("the refusal's code: %s", answer.describe()).isEqualTo(code);
        assertThat(answer.header("Content-Type")).as("a problem report: %s", answer.describe())
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    }

    static String buyerOf(ApiAnswer answer) {
        return answer.call().buyer();
    }

    /** "202" or "409 SOLD_OUT" and how often each came back: what a failed count shows. */
    static Map<String, Long> outcomes(List<ApiAnswer> answers) {
        Function<ApiAnswer, String> outcome = answer ->
                answer.status() + (answer.code().isEmpty() ? "" : " " + answer.code());
        return answers.stream().collect(Collectors.groupingBy(outcome, TreeMap::new, Collectors.counting()));
    }
}
