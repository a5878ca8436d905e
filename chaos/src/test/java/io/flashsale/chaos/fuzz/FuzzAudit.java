package io.flashsale.chaos.fuzz;

import io.flashsale.chaos.check.Books;
import io.flashsale.chaos.check.HotLedger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fuzzed sale once the pipeline has drained, held against MySQL (the truth) and the answers: every unit is
 * somewhere (available + reserved + sold = total, in Redis and MySQL alike), nothing was sold that no 202 granted,
 * no 202 was lost, and no unit came back twice. Each finding is one line of the failure message.
 */
final class FuzzAudit {

    private final SaleAccount account;
    private final Map<String, Long> createdStock;

    FuzzAudit(SaleAccount account, Map<String, Long> createdStock) {
        this.account = account;
        this.createdStock = createdStock;
    }

    /**
     * @param adjusted per SKU, the sum of the deltas of the stock adjustments the service audited for the sale
     */
    List<String> findings(Map<String, HotLedger> hot, Books.Snapshot books, Map<String, Long> adjusted) {
        List<String> findings = new ArrayList<>();
        Map<String, Books.Order> orders = new HashMap<>();
        books.orders().forEach(order -> orders.put(order.reservationId(), order));
        Map<String, Map<String, Long>> linesOf = new HashMap<>();
        books.lines().forEach(line -> linesOf.computeIfAbsent(line.reservationId(), id -> new HashMap<>())
                .merge(line.skuId(), line.quantity(), Long::sum));
        ledgers(hot, books, orders, linesOf, adjusted, findings);
        grantedAreOrders(orders, linesOf, findings);
        ordersWereGranted(books, findings);
        restoredOnce(books, orders, findings);
        return findings;
    }

    private void ledgers(Map<String, HotLedger> hot, Books.Snapshot books, Map<String, Books.Order> orders,
                         Map<String, Map<String, Long>> linesOf, Map<String, Long> adjusted, List<String> findings) {
        Map<String, Long> held = new HashMap<>();
        orders.values().stream().filter(Books.Order::holdsStock).forEach(order -> linesOf.getOrDefault(
                order.reservationId(), Map.of()).forEach((sku, units) -> held.merge(sku, units, Long::sum)));
        for (Map.Entry<String, Long> created : createdStock.entrySet()) {
            String sku = created.getKey();
            long total = created.getValue() + adjusted.getOrDefault(sku, 0L);
            HotLedger redis = hot.get(sku);
            Books.Item mysql = books.items().get(sku);
            if (redis == null || mysql == null) {
                findings.add(sku + ": missing (Redis " + redis + ", MySQL " + mysql + ")");
                continue;
            }
            long heldUnits = held.getOrDefault(sku, 0L);
            expect(findings, sku + " MySQL stock = created + audited adjustments", mysql.stock(), total);
            expect(findings, sku + " Redis total = MySQL stock", redis.total(), mysql.stock());
            // Redis's own available + reserved + sold = total holds on every read: the service's read refuses a
            // ledger whose segments hold other than total - reserved - sold units. Here it meets MySQL's truth.
            expect(findings, sku + " Redis available = MySQL stock - units of ORDERED and PAID orders",
                    redis.available(), mysql.stock() - heldUnits);
            expect(findings, sku + " Redis reserved once drained", redis.reserved(), 0);
            expect(findings, sku + " Redis sold = MySQL sold", redis.sold(), mysql.sold());
            expect(findings, sku + " MySQL sold = units of ORDERED and PAID orders", mysql.sold(), heldUnits);
            if (mysql.sold() > mysql.stock()) {
                findings.add(sku + " oversold: MySQL sold " + mysql.sold() + " of " + mysql.stock());
            }
        }
    }

    /** Every 202 is an order with the lines it was granted, or was cancelled before it became one. */
    private void grantedAreOrders(Map<String, Books.Order> orders, Map<String, Map<String, Long>> linesOf,
                                  List<String> findings) {
        for (SaleAccount.Granted reservation : account.granted()) {
            Books.Order order = orders.get(reservation.id());
            if (order == null) {
                if (!account.cancelled().contains(reservation.id())) {
                    findings.add("lost: " + reservation + " was answered 202 and is no order in MySQL");
                }
                continue;
            }
            if (!order.buyerId().equals(reservation.buyer())) {
                findings.add("order " + order + " belongs to another buyer than " + reservation);
            }
            if (!reservation.lines().equals(linesOf.getOrDefault(reservation.id(), Map.of()))) {
                findings.add("order " + order + " has lines " + linesOf.get(reservation.id()) + ", granted "
                        + reservation.lines());
            }
        }
    }

    /** No order the answers did not grant (a refused request deducted nothing), and one order per request id. */
    private void ordersWereGranted(Books.Snapshot books, List<String> findings) {
        Set<String> granted = new HashSet<>();
        account.granted().forEach(reservation -> granted.add(reservation.id()));
        Set<String> requests = new HashSet<>();
        for (Books.Order order : books.orders()) {
            if (!granted.contains(order.reservationId())) {
                findings.add("order " + order + " was never answered 202");
            }
            if (order.requestId() != null && !requests.add(order.buyerId() + "/" + order.requestId())) {
                findings.add("a second order for request " + order.buyerId() + "/" + order.requestId() + ": " + order);
            }
        }
    }

    /** A RESTORE only where there was a SALE, at most one per reservation and SKU, and only for a closed order. */
    private static void restoredOnce(Books.Snapshot books, Map<String, Books.Order> orders, List<String> findings) {
        Map<String, Integer> sales = new HashMap<>();
        Map<String, Integer> restores = new HashMap<>();
        for (Books.Flow flow : books.flows()) {
            (("SALE".equals(flow.kind())) ? sales : restores).merge(flow.reservationId() + "/" + flow.skuId(), 1,
                    Integer::sum);
        }
        sales.forEach((key, count) -> {
            if (count > 1) {
                findings.add(key + " sold " + count + " times");
            }
        });
        restores.forEach((key, count) -> {
            Books.Order order = orders.get(key.substring(0, key.indexOf('/')));
            if (count > 1 || !sales.containsKey(key) || order == null || order.holdsStock()) {
                findings.add(key + " restored " + count + " time(s), sold " + sales.getOrDefault(key, 0)
                        + " time(s), order " + order);
            }
        });
    }

    private static void expect(List<String> findings, String what, long actual, long expected) {
        if (actual != expected) {
            findings.add(what + ": " + actual + " != " + expected);
        }
    }
}
