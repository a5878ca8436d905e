package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.inspect.ReservationsTopic;
import io.flashsale.acceptance.inspect.ShopDatabase;
import io.flashsale.acceptance.inspect.ShopDatabase.ItemRecord;
import io.flashsale.acceptance.inspect.ShopDatabase.OrderRecord;
import io.flashsale.acceptance.inspect.ShopDatabase.StockMovements;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.flashsale.acceptance.steps.Answers.assertAccepted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** From accepted reservation to order: what the shop's books hold afterwards, and what each buyer is told. */
public class OrderSteps {

    private static final Duration POLL = Duration.ofMillis(200);
    // Every wait polls in the step's own thread: the scenario's beans live in Cucumber's thread-bound glue scope.
    private static final String ORDERED = "ORDERED";
    private static final String FAILED = "FAILED";
    private static final Set<String> SETTLED_STATUSES = Set.of(ORDERED, FAILED, "PAID", "CANCELLED", "EXPIRED");

    private final SaleWorld world;
    private final ShopDatabase books;
    private final ReservationsTopic topic;
    private ReservationsTopic.Position secondDelivery;

    public OrderSteps(SaleWorld world, ShopDatabase books, ReservationsTopic topic) {
        this.world = world;
        this.books = books;
        this.topic = topic;
    }

    @Given("the shop's books count only {int} {product}, fewer than the sale offers")
    public void theBooksCountFewer(long units, String skuId) {
        assertThat(units).as("fewer than the sale offers").isLessThan(world.sale().unitsOf(skuId));
        books.setStock(world.sale().id(), skuId, units);
    }

    @When("the shop is told of {buyer}'s reservation a second time")
    public void deliveredASecondTime(String buyer) {
        String reservationId = assertAccepted(world.lastAnswerOf(buyer), world.sale().id());
        secondDelivery = topic.deliverAgain(reservationId);
    }

    @Then("within {int} seconds the second notice has been dealt with")
    public void theSecondDeliveryIsHandled(int seconds) {
        ReservationsTopic.Position copy = Objects.requireNonNull(secondDelivery, "no message was delivered twice");
        await("the order consumer moving past the copy at " + copy).atMost(Duration.ofSeconds(seconds))
                .pollInterval(POLL).pollInSameThread().until(() -> topic.handled(copy));
    }

    @Then("within {int} seconds every accepted reservation is settled in the shop's books")
    public void everyAcceptedReservationIsSettled(int seconds) {
        Map<String, String> accepted = world.acceptedReservations();
        assertThat(accepted).as("reservations accepted in this scenario").isNotEmpty();
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        await("every accepted reservation in the books").atMost(remaining(deadline)).pollInterval(POLL).pollInSameThread()
                .untilAsserted(() -> assertThat(orderIds()).as("orders in the books")
                        .containsAll(accepted.keySet()));
        // The books decide first, the hot store hears of it right after: the buyers' view follows shortly. By then
        // some may have paid, cancelled or let it lapse; none may still be waiting for the books.
        await("every buyer told the outcome").atMost(remaining(deadline)).pollInterval(POLL).pollInSameThread()
                .untilAsserted(() -> assertThat(statusesSeenByWinners().values()).as("statuses the winners see")
                        .allMatch(SETTLED_STATUSES::contains));
    }

    @Then("within {int} seconds {buyer}'s repeated request shows her/his one order of it, the only one the shop's books keep")
    public void repeatedRequestShowsTheOneOrder(int seconds, String buyer) {
        String repeated = world.reservationOf(buyer);
        String buyerId = world.buyerId(buyer);
        await("the repeated request refused as a second order").atMost(Duration.ofSeconds(seconds)).pollInterval(POLL)
                .pollInSameThread().untilAsserted(() -> {
                    ApiAnswer view = world.api().send(world.api().reservation(buyerId, repeated));
                    // Refused as a second order, its id is an alias of the request's order (ADR 61).
                    assertThat(view.text("sameRequestAs")).as("the repeated request's reservation: %s",
                            view.describe()).isEqualTo(repeated);
                    assertThat(view.text("status")).as(view.describe()).isEqualTo("ORDERED");
                });
        List<OrderRecord> orders = books.orders(world.sale().id());
        assertThat(orders).as("orders of the sale: %s", orders).hasSize(1)
                .allSatisfy(order -> assertThat(order.buyerId()).isEqualTo(buyerId))
                .allMatch(OrderRecord::isOrdered);
        assertThat(orders.getFirst().reservationId()).isNotEqualTo(repeated);
        assertThat(world.api().send(world.api().reservation(buyerId, repeated)).text("reservationId"))
                .as("the repeated request's id leads to the order").isEqualTo(orders.getFirst().reservationId());
    }

    @Then("the shop's books show {buyer}'s order cancelled")
    public void booksShowOrderCancelled(String buyer) {
        String reservationId = world.reservationOf(buyer);
        assertThat(books.orders(world.sale().id())).as("orders of the sale")
                .filteredOn(order -> order.reservationId().equals(reservationId))
                .singleElement().satisfies(order -> assertThat(order.status()).isEqualTo("CANCELLED"));
    }

    @Then("the shop's books hold exactly {int} order(s), none failed")
    public void theBooksHoldOrdersNoneFailed(int expected) {
        theBooksHoldOrdersAndFailedOnes(expected, 0);
    }

    @Then("the shop's books hold exactly {int} order(s) and {int} failed one(s)")
    public void theBooksHoldOrdersAndFailedOnes(int ordered, int failed) {
        List<OrderRecord> orders = books.orders(world.sale().id());
        assertThat(orders).as("orders of the sale: %s", orders)
                .filteredOn(OrderRecord::isOrdered).hasSize(ordered);
        assertThat(orders).as("failed orders of the sale: %s", orders)
                .filteredOn(OrderRecord::isFailed).hasSize(failed);
        assertThat(orders).as("every order placed or failed: %s", orders).hasSize(ordered + failed);
        // One order per accepted reservation, and none for a reservation nobody was told about.
        assertThat(orders.stream().map(OrderRecord::reservationId).toList()).as("the orders' reservations")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(world.acceptedReservations().keySet());
        Map<String, String> buyers = world.acceptedReservations();
        for (OrderRecord order : orders) {
            assertThat(order.buyerId()).as("the buyer of %s", order).isEqualTo(buyers.get(order.reservationId()));
            assertThat(order.lineCount()).as("lines of %s", order).isPositive();
        }
    }

    @Then("the shop's books show {int} {product} sold out of {int}")
    public void theBooksShowSold(long sold, String skuId, long stock) {
        ItemRecord item = books.item(world.sale().id(), skuId);
        assertThat(item).as("%s in the books", skuId).isEqualTo(new ItemRecord(stock, sold));
        assertThat(item.sold()).as("never more sold than in stock").isLessThanOrEqualTo(item.stock());
        long orderedUnits = books.orders(world.sale().id()).stream()
                .filter(OrderRecord::holdsStock).mapToLong(OrderRecord::units).sum();
        assertThat(orderedUnits).as("units in the placed orders, paid or not").isEqualTo(sold);
    }

    @Then("the shop's stock movements add up to {int} {product} sold")
    public void theStockMovementsAddUp(long sold, String skuId) {
        StockMovements movements = books.movements(world.sale().id(), skuId);
        assertThat(movements.sold()).as("units sold by the movements %s", movements).isEqualTo(sold);
        assertThat(movements.restored()).as("units given back by the movements %s", movements).isZero();
    }

    @Then("no {product} is held as reserved any more, {int} is/are sold")
    public void nothingHeldAsReserved(String skuId, long sold) {
        StockLine stock = world.stockOf(skuId);
        assertThat(stock.reserved()).as("reserved: %s", stock).isZero();
        assertThat(stock.sold()).as("sold: %s", stock).isEqualTo(sold);
    }

    @Then("every winner sees their reservation as ordered")
    public void everyWinnerSeesOrdered() {
        Map<String, ApiAnswer> views = viewsOfWinners();
        views.forEach((id, view) -> assertOrdered(view));
    }

    @Then("{int} winner(s) see(s) their reservation as ordered")
    public void winnersSeeOrdered(int expected) {
        List<ApiAnswer> ordered = viewsOfWinners().values().stream()
                .filter(view -> ORDERED.equals(view.text("status"))).toList();
        assertThat(ordered).as("winners who see an order").hasSize(expected);
        ordered.forEach(OrderSteps::assertOrdered);
    }

    @Then("the other {int} see(s) their reservation as failed because the shop's books ran out of stock")
    public void theOthersSeeFailed(int expected) {
        List<ApiAnswer> others = viewsOfWinners().values().stream()
                .filter(view -> !ORDERED.equals(view.text("status"))).toList();
        assertThat(others).as("winners who do not see an order").hasSize(expected);
        for (ApiAnswer view : others) {
            assertThat(view.text("status")).as("failed: %s", view.describe()).isEqualTo(FAILED);
            assertThat(view.text("failureReason")).as("why: %s", view.describe()).isEqualTo("OUT_OF_STOCK");
            assertThat(view.json().path("orderId").isMissingNode() || view.json().path("orderId").isNull())
                    .as("no order to name: %s", view.describe()).isTrue();
        }
    }

    @Then("{buyer} sees her/his/their reservation as ordered")
    public void buyerSeesOrdered(String buyer) {
        String id = assertAccepted(world.lastAnswerOf(buyer), world.sale().id());
        assertOrdered(world.api().send(world.api().reservation(world.buyerId(buyer), id)));
    }

    private static void assertOrdered(ApiAnswer view) {
        assertThat(view.status()).as("looking up the reservation: %s", view.describe()).isEqualTo(200);
        assertThat(view.text("status")).as("ordered: %s", view.describe()).isEqualTo(ORDERED);
        assertThat(view.text("orderId")).as("the order named: %s", view.describe()).isNotBlank();
    }

    private List<String> orderIds() {
        return books.orders(world.sale().id()).stream().map(OrderRecord::reservationId).toList();
    }

    private Map<String, String> statusesSeenByWinners() {
        return viewsOfWinners().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().text("status")));
    }

    /** Every winner looks up their own reservation, all at once; keyed by reservation id. */
    private Map<String, ApiAnswer> viewsOfWinners() {
        Map<String, String> accepted = world.acceptedReservations();
        List<ApiCall> lookups = accepted.entrySet().stream()
                .map(entry -> world.api().reservation(entry.getValue(), entry.getKey())).toList();
        List<ApiAnswer> views = world.api().sendTogether(lookups);
        views.forEach(view -> assertThat(view.status()).as("a winner's lookup: %s", view.describe()).isEqualTo(200));
        return views.stream().collect(Collectors.toMap(view -> view.text("reservationId"), Function.identity()));
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(deadlineNanos - System.nanoTime(), POLL.toNanos()));
    }
}
