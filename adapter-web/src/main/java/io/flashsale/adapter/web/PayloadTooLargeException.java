package io.flashsale.adapter.web;

import java.io.IOException;

/** Thrown while reading a request body that runs past the configured limit. */
public class PayloadTooLargeException extends IOException {

    public PayloadTooLargeException(long limit) {
        super("the request body exceeds " + limit + " bytes");
    }
}
