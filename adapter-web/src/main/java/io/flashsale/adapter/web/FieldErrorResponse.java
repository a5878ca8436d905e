package io.flashsale.adapter.web;

/** One entry of a VALIDATION problem's {@code errors}: a JSON path such as {@code items[0].quantity}. */
public record FieldErrorResponse(String field, String message) {
}
