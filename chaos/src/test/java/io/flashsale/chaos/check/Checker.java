package io.flashsale.chaos.check;

import io.flashsale.chaos.check.Violation.Invariant;
import io.flashsale.chaos.history.Entry;
import io.flashsale.chaos.history.History;
import io.flashsale.chaos.schedule.SaleShape;
import io.flashsale.chaos.schedule.Schedule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The invariants, checked over the whole history once the system is quiet (pipeline drained, reconciliation run).
 * It only reads: the history, MySQL's books and Redis's ledgers. A reservation answered 202 may be missing from MySQL
 * only inside a documented loss window: acknowledged within {@link #AOF_LOSS_WINDOW_MILLIS} before a SIGKILL of
 * Redis ({@code appendfsync everysec}), or before a restart that lost Redis's data, or before the SIGKILL of a
 * cluster master whose replica took over (replication is asynchronous). Such losses are counted, never hidden.
 */
public final class Checker {

    /** everysec fsyncs once a second; a write may wait up to two seconds when an fsync is slow (Redis's docs). */
    static final long AOF_LOSS_WINDOW_MILLIS = 2_000;

    /**
     * A replica receives the master's writes as they are made, milliseconds behind on one machine; what it may lack
     * when the master dies is the last moments' writes, not the sale's history. Five seconds covers a replica starved
     * of a core on a loaded machine; a loss older than that is a defect, not replication.
     */
    static final long REPLICATION_LOSS_WINDOW_MILLIS = 5_000;

    private static final Map<String, Set<String>> DOCUMENTED_REFUSALS = Map.of(
            // TRY_AGAIN: a sale in slices whose buyer's home slice is empty while a transfer brings it units.
            "reserve", Set.of("SOLD_OUT", "INSUFFICIENT_STOCK", "LIMIT_EXCEEDED", "NOT_READY", "UNAVAILABLE", "RATE_LIMITED",
                    "DEGRADED", "BUSY", "TRY_AGAIN"),
            // RESERVATION_NOT_FOUND: only for a reservation that may have been lost (checkHeldReservationsFound).
            "pay", Set.of("NOT_PAYABLE", "NOT_READY", "UNAVAILABLE", "DEGRADED", "BUSY", "RESERVATION_NOT_FOUND"),
            "cancel", Set.of("NOT_CANCELLABLE", "NOT_READY", "UNAVAILABLE", "DEGRADED", "BUSY", "RESERVATION_NOT_FOUND"),
            // ACTIVITY_EXISTS: a sale's creation repeated after its first answer was lost (the opener wants 201 or 409).
            "admin", Set.of("NOT_READY", "UNAVAILABLE", "DEGRADED", "BUSY", "ACTIVITY_EXISTS"));

    /**
     * What the check found, with the counts the campaign's table reports.
     *
     * @param answeredAnewInWindow request ids answered with a second reservation id because Redis lost the first
     *                             one's idempotency record inside a documented loss window (MySQL holding at most one
     *                             order for the request that takes stock)
     * @param notFoundInWindow     payments and cancellations answered "not found" for a reservation its buyer holds
     *                             whose 202 lies inside a documented loss window (outside one it is a violation)
     */
    public record Verdict(List<Violation> violations, int acknowledged, int orders, int lostInWindow,
                          int unknownAnswers, int answeredAnewInWindow, int notFoundInWindow) {

        public boolean passed() {
            return violations.isEmpty();
        }
    }

    public Verdict check(Schedule schedule, History history, Map<String, HotLedger> hot, Books.Snapshot books) {
        List<Violation> violations = new ArrayList<>();
        List<Entry> entries = history.entries();
        checkLedgers(schedule.sale(), hot, books, violations);
        checkLimits(schedule.sale(), books, violations);
        Set<String> answeredAnew = checkOrdersPerRequest(history, entries, books, violations);
        int lost = checkAcknowledged(history, entries, books, answeredAnew, violations);
        checkRestores(books, violations);
        checkAnswers(entries, violations);
        int notFoundInWindow = checkHeldReservationsFound(history, entries, violations);
        Set<String> acknowledged = acknowledgedReservations(entries).keySet();
        int unknown = (int) entries.stream().filter(Entry::unknown).count();
        return new Verdict(violations, acknowledged.size(), books.orders().size(), lost, unknown, answeredAnew.size(),
                notFoundInWindow);
    }

    private static void checkLedgers(SaleShape sale, Map<String, HotLedger> hot, Books.Snapshot books,
                                     List<Violation> violations) {
        Map<String, Long> heldUnits = new HashMap<>();
        Set<String> holding = books.orders().stream().filter(Books.Order::holdsStock)
                .map(Books.Order::reservationId).collect(Collectors.toSet());
        for (Books.Line line : books.lines()) {
            if (holding.contains(line.reservationId())) {
                heldUnits.merge(line.skuId(), line.quantity(), Long::sum);
            }
        }
        Map<String, Long> flowNet = new HashMap<>();
        for (Books.Flow flow : books.flows()) {
            flowNet.merge(flow.skuId(), "SALE".equals(flow.kind()) ? flow.quantity() : -flow.quantity(), Long::sum);
        }
        for (SaleShape.Sku sku : sale.skus()) {
            Books.Item item = books.items().get(sku.id());
            if (item == null) {
                violations.add(new Violation(Invariant.LEDGERS_DISAGREE, sku.id() + " is not in MySQL", List.of()));
                continue;
            }
            if (item.sold() > item.stock() || item.stock() != sku.stock()) {
                violations.add(new Violation(Invariant.OVERSOLD, "%s: MySQL stock %d (created with %d), sold %d"
                        .formatted(sku.id(), item.stock(), sku.stock(), item.sold()), List.of()));
            }
            long held = heldUnits.getOrDefault(sku.id(), 0L);
            long net = flowNet.getOrDefault(sku.id(), 0L);
            if (held != item.sold() || net != item.sold()) {
                violations.add(new Violation(Invariant.LEDGERS_DISAGREE, "%s: MySQL sold %d, units in ORDERED/PAID "
                        + "orders %d, SALE-RESTORE movements %d".formatted(sku.id(), item.sold(), held, net), List.of()));
            }
            HotLedger ledger = hot.get(sku.id());
            HotLedger expected = new HotLedger(item.stock(), item.stock() - item.sold(), 0, item.sold());
            if (!expected.equals(ledger)) {
                violations.add(new Violation(Invariant.LEDGERS_DISAGREE, "%s: Redis %s, MySQL says %s"
                        .formatted(sku.id(), ledger, expected), List.of()));
            }
        }
    }

    private static void checkLimits(SaleShape sale, Books.Snapshot books, List<Violation> violations) {
        Map<String, String> buyerOf = books.orders().stream().filter(Books.Order::holdsStock)
                .collect(Collectors.toMap(Books.Order::reservationId, Books.Order::buyerId));
        Map<String, Long> held = new HashMap<>();
        for (Books.Line line : books.lines()) {
            String buyer = buyerOf.get(line.reservationId());
            if (buyer != null) {
                held.merge(buyer + "/" + line.skuId(), line.quantity(), Long::sum);
            }
        }
        Map<String, Long> purchased = new HashMap<>();
        books.purchases().forEach(p -> purchased.merge(p.buyerId() + "/" + p.skuId(), p.quantity(), Long::sum));
        Set<String> keys = new HashSet<>(held.keySet());
        keys.addAll(purchased.keySet());
        for (String key : keys) {
            String skuId = key.substring(key.indexOf('/') + 1);
            int limit = sale.sku(skuId).limit(sale.perUserLimit());
            long inOrders = held.getOrDefault(key, 0L);
            long recorded = purchased.getOrDefault(key, 0L);
            if (inOrders > limit || recorded > limit) {
                violations.add(new Violation(Invariant.OVER_LIMIT, "%s holds %d in orders, %d in buyer_purchase, limit %d"
                        .formatted(key, inOrders, recorded, limit), List.of()));
            }
            if (inOrders != recorded) {
                violations.add(new Violation(Invariant.LEDGERS_DISAGREE, "%s: %d units in ORDERED/PAID orders, "
                        + "buyer_purchase says %d".formatted(key, inOrders, recorded), List.of()));
            }
        }
    }

    /**
     * A buyer's request id is at most one order, and is answered with one reservation id. An id MySQL records as an
     * alias of the request's order (ADR 61: a second reservation the pipeline refused as the request's duplicate)
     * counts as that order's id. The one exception is the
     * documented loss window: when the first answer's idempotency record may have been lost with Redis's data (its
     * 202 inside the window of a Redis SIGKILL or a data-losing restart), a retry is a new reservation with a new id;
     * that is allowed only when every id but the last was answered inside such a window and MySQL holds at most one
     * order of the request that is not FAILED. Such requests are returned (and counted), never hidden.
     */
    private static Set<String> checkOrdersPerRequest(History history, List<Entry> entries, Books.Snapshot books,
                                                     List<Violation> violations) {
        Map<String, List<Books.Order>> byRequest = ordersByRequest(books);
        byRequest.forEach((request, orders) -> {
            if (orders.size() > 1) {
                violations.add(new Violation(Invariant.DOUBLE_ORDER, request + " is " + orders.size() + " orders: "
                        + orders, evidenceOf(entries, request.substring(request.indexOf('/') + 1))));
            }
        });
        Map<String, Map<String, Entry>> answeredIds = new HashMap<>();
        for (Entry entry : entries) {
            if ("reserve".equals(entry.kind()) && entry.status() == 202) {
                String request = entry.buyer() + "/" + entry.requestId();
                answeredIds.computeIfAbsent(request, key -> new LinkedHashMap<>())
                        .putIfAbsent(orderIdOf(books, request, entry.reservationId()), entry);
            }
        }
        Set<String> answeredAnew = new HashSet<>();
        answeredIds.forEach((request, firstAnswers) -> {
            if (firstAnswers.size() < 2) {
                return;
            }
            List<Entry> inOrder = firstAnswers.values().stream()
                    .sorted(Comparator.comparingLong(Entry::answeredMillis)).toList();
            boolean earlierLostInWindow = inOrder.subList(0, inOrder.size() - 1).stream()
                    .allMatch(first -> insideLossWindow(history, first));
            long standing = byRequest.getOrDefault(request, List.of()).stream()
                    .filter(order -> !"FAILED".equals(order.status())).count();
            if (earlierLostInWindow && standing <= 1) {
                answeredAnew.add(request);
            } else {
                violations.add(new Violation(Invariant.DOUBLE_ORDER, request + " was answered with "
                        + firstAnswers.size() + " reservations " + firstAnswers.keySet() + (earlierLostInWindow
                        ? ", and MySQL holds " + standing + " orders of it that are not FAILED"
                        : ", the earlier outside every documented loss window") + "; MySQL's orders of it: "
                        + byRequest.getOrDefault(request, List.of()),
                        evidenceOf(entries, request.substring(request.indexOf('/') + 1))));
            }
        });
        return answeredAnew;
    }

    /**
     * The id of the request's order that {@code reservationId} stands for: the id itself, or the reservation MySQL
     * records it as an alias of, when that one's order is of the same request.
     */
    static String orderIdOf(Books.Snapshot books, String request, String reservationId) {
        String target = books.aliases().get(reservationId);
        if (target == null) {
            return reservationId;
        }
        boolean sameRequest = books.orders().stream().anyMatch(order -> order.reservationId().equals(target)
                && request.equals(order.buyerId() + "/" + order.requestId()));
        return sameRequest ? target : reservationId;
    }

    private static Map<String, List<Books.Order>> ordersByRequest(Books.Snapshot books) {
        return books.orders().stream().collect(Collectors.groupingBy(order -> order.buyerId() + "/" + order.requestId()));
    }

    /**
     * Every 202 is an order, or an alias of its request's order (ADR 61), or was cancelled by its buyer, or was lost
     * inside a documented loss window (counted). A
     * reservation made anew for a request whose first answer Redis lost in such a window (see
     * {@link #checkOrdersPerRequest}) may be refused by MySQL as a duplicate of the request's order: the request is
     * then not lost, as long as MySQL holds an order for it.
     */
    private static int checkAcknowledged(History history, List<Entry> entries, Books.Snapshot books,
                                         Set<String> answeredAnew, List<Violation> violations) {
        Set<String> inBooks = books.orders().stream().map(Books.Order::reservationId).collect(Collectors.toSet());
        Set<String> requestsInBooks = ordersByRequest(books).keySet();
        Set<String> cancelled = entries.stream()
                .filter(entry -> "cancel".equals(entry.kind()) && entry.status() == 200)
                .map(Entry::reservationId).collect(Collectors.toSet());
        int lostInWindow = 0;
        for (Map.Entry<String, Entry> acknowledged : acknowledgedReservations(entries).entrySet()) {
            String reservationId = acknowledged.getKey();
            if (inBooks.contains(reservationId) || cancelled.contains(reservationId)) {
                continue;
            }
            Entry answer = acknowledged.getValue();
            String request = answer.buyer() + "/" + answer.requestId();
            if (!orderIdOf(books, request, reservationId).equals(reservationId)) {
                // Refused as the request's duplicate and recorded as an alias of its order (ADR 61): it leads there.
                continue;
            }
            if (insideLossWindow(history, answer)) {
                lostInWindow++;
            } else if (answeredAnew.contains(request) && requestsInBooks.contains(request)) {
                // The request's one order is its earlier reservation; this later id was refused as its duplicate.
                continue;
            } else {
                // What the request became, not only this id: a repeat answered with another id, and MySQL's orders of
                // the request (a DUPLICATE_REQUEST refusal leaves no row of this id, ADR 32).
                violations.add(new Violation(Invariant.LOST_RESERVATION, reservationId + " was answered 202 and is "
                        + "no order, outside every documented loss window; MySQL's orders of " + request + ": "
                        + ordersByRequest(books).getOrDefault(request, List.of()), entries.stream()
                        .filter(entry -> reservationId.equals(entry.reservationId())
                                || answer.buyer().equals(entry.buyer()) && answer.requestId() != null
                                && answer.requestId().equals(entry.requestId()))
                        .toList()));
            }
        }
        return lostInWindow;
    }

    /**
     * Whether Redis may have lost this acknowledged write by design: the script ran somewhere between the request's
     * send and its answer, so the write is at risk when that span reaches into the {@link #AOF_LOSS_WINDOW_MILLIS}
     * before a SIGKILL (everysec), or began before a restart that lost all data, or reaches into the
     * {@link #REPLICATION_LOSS_WINDOW_MILLIS} before the SIGKILL of a master whose replica took over. (The answer itself may arrive after the kill: a reply delayed by a slow link or a paused
     * service.)
     */
    public static boolean insideLossWindow(History history, Entry acknowledged) {
        return history.faults().stream().anyMatch(fault -> switch (fault.kind()) {
            case "REDIS_KILL" -> acknowledged.sentMillis() <= fault.startedMillis()
                    && acknowledged.answeredMillis() >= fault.startedMillis() - AOF_LOSS_WINDOW_MILLIS;
            case "REDIS_WIPE" -> acknowledged.sentMillis() <= fault.startedMillis();
            // A failover's replica (asynchronous replication) may lack what the master ran just before it died.
            case "MASTER_FAILOVER" -> acknowledged.sentMillis() <= fault.startedMillis()
                    && acknowledged.answeredMillis() >= fault.startedMillis() - REPLICATION_LOSS_WINDOW_MILLIS;
            default -> false;
        });
    }

    private static void checkRestores(Books.Snapshot books, List<Violation> violations) {
        Map<String, Long> lineUnits = new HashMap<>();
        books.lines().forEach(line -> lineUnits.put(line.reservationId() + "/" + line.skuId(), line.quantity()));
        Map<String, Map<String, Long>> flows = new HashMap<>();
        for (Books.Flow flow : books.flows()) {
            flows.computeIfAbsent(flow.reservationId() + "/" + flow.skuId(), key -> new HashMap<>())
                    .merge(flow.kind(), flow.quantity(), Long::sum);
        }
        Map<String, Books.Order> orders = books.orders().stream()
                .collect(Collectors.toMap(Books.Order::reservationId, order -> order));
        for (Map.Entry<String, Map<String, Long>> movement : flows.entrySet()) {
            String key = movement.getKey();
            Books.Order order = orders.get(key.substring(0, key.lastIndexOf('/')));
            long sale = movement.getValue().getOrDefault("SALE", 0L);
            long restore = movement.getValue().getOrDefault("RESTORE", 0L);
            long units = lineUnits.getOrDefault(key, 0L);
            boolean holds = order != null && order.holdsStock();
            boolean right = holds ? sale == units && restore == 0
                    : restore == sale && (sale == 0 || sale == units);
            if (!right) {
                violations.add(new Violation(Invariant.RESTORE_NOT_ONCE, "%s (%s): %d units, SALE %d, RESTORE %d"
                        .formatted(key, order == null ? "no order" : order.status(), units, sale, restore), List.of()));
            }
        }
        for (Books.Order order : books.orders()) {
            if (order.holdsStock()) {
                books.lines().stream().filter(line -> line.reservationId().equals(order.reservationId()))
                        .filter(line -> !flows.containsKey(line.reservationId() + "/" + line.skuId()))
                        .forEach(line -> violations.add(new Violation(Invariant.LEDGERS_DISAGREE, order
                                + " holds " + line + " with no SALE movement", List.of())));
            }
            if ("FAILED".equals(order.status()) && order.failureReason() == null) {
                violations.add(new Violation(Invariant.LEDGERS_DISAGREE, order + " FAILED without a reason", List.of()));
            }
        }
    }

    private static void checkAnswers(List<Entry> entries, List<Violation> violations) {
        List<Entry> serverErrors = entries.stream().filter(entry -> entry.status() >= 500 && entry.status() != 503)
                .toList();
        if (!serverErrors.isEmpty()) {
            violations.add(new Violation(Invariant.SERVER_ERROR, serverErrors.size() + " answers 5xx other than 503",
                    serverErrors));
        }
        List<Entry> undocumented = entries.stream()
                .filter(entry -> !entry.unknown() && entry.status() >= 400 && entry.status() != 500)
                .filter(entry -> entry.code() == null
                        || !DOCUMENTED_REFUSALS.getOrDefault(entry.kind(), Set.of()).contains(entry.code()))
                .toList();
        if (!undocumented.isEmpty()) {
            violations.add(new Violation(Invariant.UNDOCUMENTED_REFUSAL, undocumented.size()
                    + " refusals without the code the API documents for that call", undocumented));
        }
    }

    /**
     * A buyer pays and cancels only reservations it was answered 202 for. "Not found" for one of them is a broken
     * promise unless Redis may have lost it inside a documented loss window: a reservation Redis kept is found in Redis
     * or, once settled, in MySQL, and while Redis is out the answer is 503 (ADR 116). Returns how many such answers
     * the loss windows allowed.
     */
    private static int checkHeldReservationsFound(History history, List<Entry> entries, List<Violation> violations) {
        Map<String, Entry> acknowledged = acknowledgedReservations(entries);
        Map<Boolean, List<Entry>> byWindow = entries.stream()
                .filter(entry -> ("pay".equals(entry.kind()) || "cancel".equals(entry.kind()))
                        && "RESERVATION_NOT_FOUND".equals(entry.code())
                        && acknowledged.containsKey(entry.reservationId()))
                .collect(Collectors.partitioningBy(entry ->
                        insideLossWindow(history, acknowledged.get(entry.reservationId()))));
        List<Entry> notFound = byWindow.get(false);
        if (!notFound.isEmpty()) {
            violations.add(new Violation(Invariant.HELD_RESERVATION_NOT_FOUND, notFound.size()
                    + " payments or cancellations answered RESERVATION_NOT_FOUND for a reservation its buyer was "
                    + "answered 202 for, outside every documented loss window", notFound));
        }
        return byWindow.get(true).size();
    }

    /** Reservation id to the first 202 that announced it. */
    static Map<String, Entry> acknowledgedReservations(List<Entry> entries) {
        Map<String, Entry> acknowledged = new HashMap<>();
        for (Entry entry : entries) {
            if ("reserve".equals(entry.kind()) && entry.status() == 202 && entry.reservationId() != null) {
                acknowledged.putIfAbsent(entry.reservationId(), entry);
            }
        }
        return acknowledged;
    }

    private static List<Entry> evidenceOf(List<Entry> entries, String requestId) {
        return entries.stream().filter(entry -> requestId.equals(entry.requestId())).toList();
    }
}
