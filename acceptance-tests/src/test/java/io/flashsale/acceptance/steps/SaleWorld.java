package io.flashsale.acceptance.steps;

import io.cucumber.spring.ScenarioScope;
import io.flashsale.acceptance.CucumberSpringConfiguration;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.api.PaymentProvider;
import io.flashsale.acceptance.api.SaleSpec;
import io.flashsale.acceptance.time.ScenarioClock;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.slice.SaleSlices;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one scenario knows: its sale, its buyers and the answers they got. Every scenario draws a
 * fresh token, so its sale and buyers never meet another scenario's stock, even across runs.
 */
@Component
@ScenarioScope
public class SaleWorld {

    private final FlashsaleApi api;
    private final PaymentProvider paymentProvider;
    private final FlashsaleApi operators;
    private final ScenarioClock clock;
    private final String token = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    private final List<ApiAnswer> answers = new ArrayList<>();
    private final Map<String, ApiAnswer> lastAnswerOfBuyer = new LinkedHashMap<>();
    private final Map<String, String> reservationOfBuyer = new LinkedHashMap<>();
    private final Map<String, String> paymentOfBuyer = new LinkedHashMap<>();
    /** Buyers given an identity the scenario chose, e.g. one whose home is a given slice of the sale. */
    private final Map<String, String> chosenBuyerIds = new LinkedHashMap<>();
    private int payments;
    private List<ApiAnswer> crowdAnswers = List.of();
    private SaleSpec sale;

    public SaleWorld(@Value("${local.server.port}") int port, @Value("${local.management.port}") int managementPort,
                     ScenarioClock clock) {
        this.api = new FlashsaleApi(port, CucumberSpringConfiguration.ADMIN_TOKEN);
        this.paymentProvider = new PaymentProvider(CucumberSpringConfiguration.NOTIFICATION_SECRET, clock);
        this.operators = new FlashsaleApi(managementPort, CucumberSpringConfiguration.ADMIN_TOKEN);
        this.clock = clock;
    }

    /** The service's clock: sales are set in its time, and the time steps move it forward. */
    public ScenarioClock clock() {
        return clock;
    }

    public FlashsaleApi api() {
        return api;
    }

    public PaymentProvider paymentProvider() {
        return paymentProvider;
    }

    /** A new payment the provider took from the buyer: its reference, unique across scenarios and runs. */
    public String newPaymentOf(String buyer) {
        String reference = unique("pay") + "-" + ++payments;
        paymentOfBuyer.put(buyer, reference);
        return reference;
    }

    /** The buyer's last payment. */
    public String paymentOf(String buyer) {
        String reference = paymentOfBuyer.get(buyer);
        assertThat(reference).as("%s has paid", buyer).isNotNull();
        return reference;
    }

    /** The operators' surface: the actuator on its own port, behind the admin token. */
    public FlashsaleApi operators() {
        return operators;
    }

    /** A name that no other scenario or run uses, e.g. for a sale id. */
    public String unique(String prefix) {
        return prefix + "-" + token;
    }

    public String buyerId(String name) {
        return chosenBuyerIds.getOrDefault(name, name.toLowerCase(Locale.ROOT) + "-" + token);
    }

    /**
     * Gives the named buyer, before they send anything, an identity whose home is slice {@code slice} of the
     * scenario's sale in slices: the first of their name's identities, then {@code <name>-1}, {@code <name>-2} and
     * so on, that the sale homes there (ADR 109).
     */
    public void homeIn(String name, int slice) {
        assertThat(lastAnswerOfBuyer).as("%s has sent nothing yet", name).doesNotContainKey(name);
        SaleSlices slices = new SaleSlices(sale().slices().orElseThrow(
                () -> new AssertionError("the scenario's sale is not split into slices")));
        slices.requireSlice(slice, "slice");
        String base = name.toLowerCase(Locale.ROOT) + "-" + token;
        for (int n = 0; n < 10_000; n++) {
            String candidate = n == 0 ? base : base + "-" + n;
            if (slices.homeOf(new BuyerId(candidate)) == slice) {
                chosenBuyerIds.put(name, candidate);
                return;
            }
        }
        throw new AssertionError("no identity of " + name + " found whose home is slice " + slice);
    }

    public void open(SaleSpec spec) {
        ApiAnswer created = api.send(api.createSale(spec.toBody()));
        assertThat(created.status()).as("creating the sale: %s", created.describe()).isEqualTo(201);
        assertThat(created.header("Location")).as("where the new sale lives").isPresent();
        this.sale = spec;
    }

    /** The operator moved the sale's window: the scenario's sale is that one from now on. */
    public void saleMoved(SaleSpec moved) {
        this.sale = moved;
    }

    public SaleSpec sale() {
        return Objects.requireNonNull(sale, "the scenario has not set up a sale");
    }

    /** Sends one of the scenario's requests and remembers the answer; look-ups and set-up use {@link #api()}. */
    public ApiAnswer send(ApiCall call) {
        ApiAnswer answer = api.send(call);
        answers.add(answer);
        return answer;
    }

    public ApiAnswer reserveAs(String buyer, Map<String, Object> request) {
        return sendAs(buyer, api.reserve(sale().id(), buyerId(buyer), request));
    }

    public ApiAnswer sendAs(String buyer, ApiCall call) {
        ApiAnswer answer = send(call);
        lastAnswerOfBuyer.put(buyer, answer);
        if (Answers.isAccepted(answer)) {
            reservationOfBuyer.put(buyer, answer.text("reservationId"));
        }
        return answer;
    }

    /** The id of the last reservation the buyer was granted in this scenario. */
    public String reservationOf(String buyer) {
        String id = reservationOfBuyer.get(buyer);
        assertThat(id).as("%s has been granted a reservation", buyer).isNotBlank();
        return id;
    }

    public ApiAnswer lastAnswer() {
        assertThat(answers).as("answers so far").isNotEmpty();
        return answers.getLast();
    }

    public List<ApiAnswer> lastAnswers(int count) {
        assertThat(answers).as("answers so far").hasSizeGreaterThanOrEqualTo(count);
        return answers.subList(answers.size() - count, answers.size());
    }

    /** Every answer the buyer got in this scenario, in order. */
    public List<ApiAnswer> answersOf(String buyer) {
        String buyerId = buyerId(buyer);
        return answers.stream().filter(answer -> buyerId.equals(Answers.buyerOf(answer))).toList();
    }

    public ApiAnswer lastAnswerOf(String buyer) {
        ApiAnswer answer = lastAnswerOfBuyer.get(buyer);
        assertThat(answer).as("%s has sent a request", buyer).isNotNull();
        return answer;
    }

    public void crowdAnswered(List<ApiAnswer> answers) {
        this.crowdAnswers = List.copyOf(answers);
    }

    public List<ApiAnswer> crowdAnswers() {
        return crowdAnswers;
    }

    /** Reservation id to buyer id of every reservation accepted in this scenario, one by one or in a crowd. */
    public Map<String, String> acceptedReservations() {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (List<ApiAnswer> batch : List.of(answers, crowdAnswers)) {
            batch.stream().filter(Answers::isAccepted)
                    .forEach(answer -> accepted.put(answer.text("reservationId"), Answers.buyerOf(answer)));
        }
        return accepted;
    }

    /** The admin's view of one SKU of the scenario's sale: the hot store's ledger, or the books' once archived. */
    public StockLine stockOf(String skuId) {
        ApiAnswer view = api.send(api.stockView(sale().id()));
        assertThat(view.status()).as("the stock view: %s", view.describe()).isEqualTo(200);
        assertThat(view.text("activityId")).as("the stock view's sale").isEqualTo(sale().id());
        for (JsonNode item : view.json().path("items")) {
            if (skuId.equals(item.path("skuId").asString(""))) {
                return StockLine.from(item);
            }
        }
        throw new AssertionError("the stock view does not list " + skuId + ": " + view.describe());
    }
}
