package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.mapstruct.Mapper;
import org.mapstruct.Mapping;
import org.mapstruct.Named;
import org.mapstruct.ReportingPolicy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Order rows to domain and back. The order is rebuilt through its canonical constructor, so every row read
 * passes the domain's own validation; the factories below name each conversion. The row keeps one column per
 * closing status (paid_at, cancelled_at, expired_at) where the order keeps one {@code closedAt} read by its status.
 */
@Mapper(unmappedTargetPolicy = ReportingPolicy.ERROR)
interface OrderRowMapper {

    /** The order a row and its lines hold; the payment deadline stays in the database. */
    default Order toOrder(OrderRow row, List<OrderLineRow> lines) {
        ReservationStatus status = status(row.status());
        Instant closedAt = switch (status) {
            case PAID -> row.paidAt();
            case CANCELLED -> row.cancelledAt();
            case EXPIRED -> row.expiredAt();
            case RESERVED, ORDERED, FAILED -> null;
        };
        return new Order(reservationId(row.reservationId()), buyerId(row.buyerId()), requestId(row.requestId()),
                lines.stream().map(this::toLine).toList(), status, failureReason(row.failureReason()),
                row.reservedAt(), row.placedAt(), row.orderedAt(), closedAt);
    }

    ReservationLine toLine(OrderLineRow row);

    @Mapping(target = "reservationId", source = "id")
    @Mapping(target = "activityId", source = "id", qualifiedByName = "activityOf")
    @Mapping(target = "reservedAt", qualifiedByName = "storedPrecision")
    @Mapping(target = "placedAt", qualifiedByName = "storedPrecision")
    @Mapping(target = "orderedAt", qualifiedByName = "storedPrecision")
    @Mapping(target = "paidAt", source = "order", qualifiedByName = "paidAt")
    @Mapping(target = "cancelledAt", source = "order", qualifiedByName = "cancelledAt")
    @Mapping(target = "expiredAt", source = "order", qualifiedByName = "expiredAt")
    @Mapping(target = "paymentDueAt", ignore = true)
    OrderRow toRow(Order order);

    @Named("paidAt")
    default Instant paidAt(Order order) {
        return closedAtIf(order, ReservationStatus.PAID);
    }

    @Named("cancelledAt")
    default Instant cancelledAt(Order order) {
        return closedAtIf(order, ReservationStatus.CANCELLED);
    }

    @Named("expiredAt")
    default Instant expiredAt(Order order) {
        return closedAtIf(order, ReservationStatus.EXPIRED);
    }

    private Instant closedAtIf(Order order, ReservationStatus status) {
        return order.status() == status ? storedPrecision(order.closedAt()) : null;
    }

    @Mapping(target = "reservationId", source = "reservationId")
    @Mapping(target = "lineIndex", source = "lineIndex")
    OrderLineRow toLineRow(ReservationLine line, String reservationId, int lineIndex);

    /** The line rows in the order's own order, numbered from 0. */
    default List<OrderLineRow> toLineRows(Order order) {
        List<OrderLineRow> rows = new ArrayList<>(order.lines().size());
        for (ReservationLine line : order.lines()) {
            rows.add(toLineRow(line, order.id().value(), rows.size()));
        }
        return rows;
    }

    default ReservationId reservationId(String value) {
        return new ReservationId(value);
    }

    default String reservationIdValue(ReservationId id) {
        return id.value();
    }

    @Named("activityOf")
    default String activityOf(ReservationId id) {
        return id.activityId().value();
    }

    default BuyerId buyerId(String value) {
        return new BuyerId(value);
    }

    default String buyerIdValue(BuyerId id) {
        return id.value();
    }

    default RequestId requestId(String value) {
        return new RequestId(value);
    }

    default String requestIdValue(RequestId id) {
        return id.value();
    }

    default SkuId skuId(String value) {
        return new SkuId(value);
    }

    default String skuIdValue(SkuId id) {
        return id.value();
    }

    default ReservationStatus status(String name) {
        return ReservationStatus.valueOf(name);
    }

    default String statusName(ReservationStatus status) {
        return status.name();
    }

    /** The column is NULL unless the order FAILED. */
    default OrderRefusal failureReason(String name) {
        return name == null ? null : OrderRefusal.valueOf(name);
    }

    default String failureReasonName(OrderRefusal reason) {
        return reason == null ? null : reason.name();
    }

    /** DATETIME(3) keeps milliseconds: truncate here so the server never rounds. */
    @Named("storedPrecision")
    default Instant storedPrecision(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }

    /** The order exactly as a later read will find it. */
    default Order asStored(Order order) {
        return toOrder(toRow(order), toLineRows(order));
    }
}
