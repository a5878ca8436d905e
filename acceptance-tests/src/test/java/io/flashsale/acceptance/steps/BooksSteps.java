package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.flashsale.acceptance.api.SaleSpec.Product;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.acceptance.inspect.ShopDatabase;
import io.flashsale.acceptance.inspect.ShopDatabase.ItemRecord;
import io.flashsale.acceptance.inspect.ShopDatabase.OrderRecord;
import io.flashsale.acceptance.inspect.ShopDatabase.StockMovements;
import io.flashsale.domain.slice.SaleSlices;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The shop's books after the lifecycle moved stock back and forth, and whether the fast store agrees with them. */
public class BooksSteps {

    private static final Duration POLL = Duration.ofMillis(100);

    private final SaleWorld world;
    private final ShopDatabase books;
    private final HotStore hotStore;

    public BooksSteps(SaleWorld world, ShopDatabase books, HotStore hotStore) {
        this.world = world;
        this.books = books;
        this.hotStore = hotStore;
    }

    @Then("the shop's stock movements show {int} {product} sold and {int} given back")
    public void movementsShow(long sold, String skuId, long givenBack) {
        StockMovements movements = books.movements(world.sale().id(), skuId);
        assertThat(movements.sold()).as("units sold by the movements %s", movements).isEqualTo(sold);
        assertThat(movements.restored()).as("units given back by the movements %s", movements).isEqualTo(givenBack);
        assertThat(movements.netSold()).as("sold less given back, against the books")
                .isEqualTo(books.item(world.sale().id(), skuId).sold());
    }

    @Then("the shop's books record {buyer}'s order as {word}")
    public void booksRecordOrderAs(String buyer, String status) {
        OrderRecord order = orderOf(buyer);
        assertThat(order.status()).as("%s's order in the books: %s", buyer, order)
                .isEqualTo(status.toUpperCase(Locale.ROOT));
        assertThat(order.everOrdered()).as("it was an order: %s", order).isTrue();
    }

    @Then("within {int} seconds the shop's books record {buyer}'s reservation as cancelled, without selling anything")
    public void booksRecordCancelledBeforeOrder(int seconds, String buyer) {
        String reservationId = world.reservationOf(buyer);
        AtomicReference<OrderRecord> recorded = new AtomicReference<>();
        await("the books recording " + reservationId).atMost(Duration.ofSeconds(seconds)).pollInterval(POLL)
                .pollInSameThread().untilAsserted(() -> {
                    recorded.set(books.order(world.sale().id(), reservationId).orElse(null));
                    assertThat(recorded.get()).as("%s's reservation in the books", buyer).isNotNull();
                });
        OrderRecord order = recorded.get();
        assertThat(order.status()).as("recorded: %s", order).isEqualTo("CANCELLED");
        assertThat(order.everOrdered()).as("never an order: %s", order).isFalse();
        assertThat(books.movementsOf(reservationId)).as("stock movements of %s", reservationId)
                .isEqualTo(new StockMovements(0, 0, 0));
        for (Product product : world.sale().products()) {
            assertThat(books.item(world.sale().id(), product.skuId()).sold()).as("%s sold", product.skuId()).isZero();
        }
    }

    /**
     * Every SKU: the fast store's ledger (through the admin's stock view) matches the books, nothing is held as
     * reserved, nothing is oversold, the movements add up; and every buyer holds in the fast store what the books
     * say they bought.
     */
    @Then("the shop's books and the fast store agree")
    public void booksAndFastStoreAgree() {
        String saleId = world.sale().id();
        for (Product product : world.sale().products()) {
            ItemRecord item = books.item(saleId, product.skuId());
            StockLine stock = world.stockOf(product.skuId());
            assertThat(item.sold()).as("never oversold in the books: %s", item).isLessThanOrEqualTo(item.stock());
            long left = item.stock() - item.sold();
            assertThat(stock).as("the fast store's %s against the books %s", product.skuId(), item)
                    .isEqualTo(new StockLine(product.skuId(), item.stock(), left, 0, item.sold()));
            assertThat(books.movements(saleId, product.skuId()).netSold()).as("movements of %s", product.skuId())
                    .isEqualTo(item.sold());
        }
        assertThat(hotStore.holdings(saleId, new SaleSlices(world.sale().slices().orElse(1))))
                .as("what each buyer holds in the fast store (every slice of it), against the books")
                .isEqualTo(books.purchases(saleId));
    }

    /** Each buyer's purchases in the books are the units of their orders that hold stock (placed or paid). */
    @Then("the shop's books still hold what every buyer bought")
    public void booksHoldEveryPurchase() {
        String saleId = world.sale().id();
        String skuId = world.sale().onlyProduct();
        Map<String, Long> bought = new TreeMap<>();
        List<OrderRecord> orders = books.orders(saleId);
        orders.stream().filter(OrderRecord::holdsStock)
                .forEach(order -> bought.merge(order.buyerId() + ":" + skuId, order.units(), Long::sum));
        assertThat(bought).as("units in the orders %s", orders).isNotEmpty();
        assertThat(books.purchases(saleId)).as("the buyers' purchases in the books").isEqualTo(bought);
    }

    private OrderRecord orderOf(String buyer) {
        String reservationId = world.reservationOf(buyer);
        return books.order(world.sale().id(), reservationId)
                .orElseThrow(() -> new AssertionError("no order for " + buyer + "'s reservation " + reservationId));
    }
}
