package io.flashsale.acceptance.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A sale as the admin describes it when creating it.
 *
 * @param paymentTimeoutSeconds how long a buyer has to pay for an order, if not the service's default
 * @param slices                how many slices the sale is cut into, if not one
 */
public record SaleSpec(String id, String name, Instant startsAt, Instant endsAt, int perUserLimit,
                       List<Product> products, OptionalInt paymentTimeoutSeconds, OptionalInt slices) {

    /**
     * @param ownLimit  a per-buyer limit for this product that overrides the sale's, if any
     * @param segments  how many counters the stock is split into, if not the default
     */
    public record Product(String skuId, long units, OptionalInt ownLimit, OptionalInt segments) {

        public static Product of(String skuId, long units) {
            return new Product(skuId, units, OptionalInt.empty(), OptionalInt.empty());
        }
    }

    public SaleSpec {
        products = List.copyOf(products);
    }

    public SaleSpec(String id, String name, Instant startsAt, Instant endsAt, int perUserLimit,
                    List<Product> products) {
        this(id, name, startsAt, endsAt, perUserLimit, products, OptionalInt.empty(), OptionalInt.empty());
    }

    /** The same sale with its window moved by an operator. */
    public SaleSpec withWindow(Instant newStartsAt, Instant newEndsAt) {
        return new SaleSpec(id, name, newStartsAt, newEndsAt, perUserLimit, products, paymentTimeoutSeconds, slices);
    }

    public SaleSpec withPaymentTimeout(int seconds) {
        return new SaleSpec(id, name, startsAt, endsAt, perUserLimit, products, OptionalInt.of(seconds), slices);
    }

    /** The same sale cut into {@code count} slices, each a share of every product and of the buyers. */
    public SaleSpec inSlices(int count) {
        return new SaleSpec(id, name, startsAt, endsAt, perUserLimit, products, paymentTimeoutSeconds,
                OptionalInt.of(count));
    }

    /** The SKU of a sale that offers exactly one. */
    public String onlyProduct() {
        if (products.size() != 1) {
            throw new IllegalStateException("the sale offers " + products.size() + " products, not one");
        }
        return products.getFirst().skuId();
    }

    public long unitsOf(String skuId) {
        return products.stream().filter(product -> product.skuId().equals(skuId)).findFirst()
                .map(Product::units)
                .orElseThrow(() -> new IllegalArgumentException("the sale offers no " + skuId));
    }

    public Map<String, Object> toBody() {
        var items = new ArrayList<Map<String, Object>>();
        for (Product product : products) {
            var item = new LinkedHashMap<String, Object>();
            item.put("skuId", product.skuId());
            item.put("stock", product.units());
            product.ownLimit().ifPresent(limit -> item.put("perUserLimit", limit));
            product.segments().ifPresent(segments -> item.put("segments", segments));
            items.add(item);
        }
        var body = new LinkedHashMap<String, Object>();
        body.put("id", id);
        body.put("name", name);
        body.put("startsAt", startsAt.toString());
        body.put("endsAt", endsAt.toString());
        body.put("perUserLimit", perUserLimit);
        paymentTimeoutSeconds.ifPresent(seconds -> body.put("paymentTimeoutSeconds", seconds));
        slices.ifPresent(count -> body.put("slices", count));
        body.put("items", items);
        return body;
    }
}
