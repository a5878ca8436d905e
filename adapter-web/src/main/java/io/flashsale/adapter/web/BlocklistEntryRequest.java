package io.flashsale.adapter.web;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * A value to put on the blocklist: {@code kind} buyer, address (an IPv4/IPv6 address or a CIDR block) or device, and
 * the reason an auditor will read. The value's form is checked by its kind (400 {@code VALIDATION}).
 */
public record BlocklistEntryRequest(
        @NotNull @Pattern(regexp = "buyer|address|device", message = "must be buyer, address or device") String kind,
        @NotNull @Pattern(regexp = "[A-Za-z0-9._:/-]{1,128}", message = "must be 1-128 characters of [A-Za-z0-9._:/-]")
        String value,
        @NotNull @Pattern(regexp = "[^\\p{Cntrl}]{1,200}", message = "must be 1-200 characters without control "
                + "characters") String reason) {
}
