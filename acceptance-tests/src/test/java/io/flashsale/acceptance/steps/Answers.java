package io.flashsale.acceptance.steps;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** How the steps read the service's answers: accepted reservations and refusals with their stable codes. */
final class Answers {

    static final int ACCEPTED = 202;

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
        assertThat(answer.text("status")).as("status of the reservation").isEqualTo("RESERVED");
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
        return answer.call().headers().get(FlashsaleApi.BUYER_HEADER);
    }

    /** "202" or "409 SOLD_OUT" and how often each came back: what a failed count shows. */
    static Map<String, Long> outcomes(List<ApiAnswer> answers) {
        Function<ApiAnswer, String> outcome = answer ->
                answer.status() + (answer.code().isEmpty() ? "" : " " + answer.code());
        return answers.stream().collect(Collectors.groupingBy(outcome, TreeMap::new, Collectors.counting()));
    }
}
