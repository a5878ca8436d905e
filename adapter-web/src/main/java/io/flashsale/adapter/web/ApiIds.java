package io.flashsale.adapter.web;

import io.flashsale.domain.shared.Identifier;

/** The domain's id shape as annotation constants, so Bean Validation can list every bad id at once. */
public final class ApiIds {

    public static final String PATTERN = "[A-Za-z0-9_-]{1," + Identifier.MAX_LENGTH + "}";
    public static final String MESSAGE = "must be 1-" + Identifier.MAX_LENGTH + " characters of [A-Za-z0-9_-]";

    private ApiIds() {
    }
}
