package io.flashsale.domain.risk;

import io.flashsale.domain.shared.InvalidValueException;

import java.util.regex.Pattern;

/** A client's device id as its app reports it: 1-128 characters of {@code [A-Za-z0-9._:-]}. */
public record DeviceId(String value) {

    private static final Pattern FORM = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    public DeviceId {
        if (!isValid(value)) {
            throw new InvalidValueException("deviceId", "must be 1-128 characters of [A-Za-z0-9._:-]");
        }
    }

    public static boolean isValid(String value) {
        return value != null && FORM.matcher(value).matches();
    }
}
