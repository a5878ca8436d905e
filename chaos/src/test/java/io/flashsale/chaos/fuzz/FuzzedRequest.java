package io.flashsale.chaos.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One HTTP request made from fuzzer bytes.
 *
 * @param raw   sent as bytes over a plain socket (malformed request lines, headers with CR/LF or non-ASCII, invalid
 *              UTF-8 in the path) instead of through the HTTP client, which refuses those
 * @param admin carries the operator's token: such a request may move the sale's ledgers in ways its answer does not
 *              spell out (a reconciliation, a warm-up), so only the final check judges its effect
 */
record FuzzedRequest(String method, String path, List<Header> headers, byte[] body, boolean raw, boolean admin) {

    record Header(String name, String value) {
        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    boolean isHead() {
        return "HEAD".equalsIgnoreCase(method);
    }

    String bodyText() {
        return body == null ? "" : new String(body, StandardCharsets.UTF_8);
    }

    /** For a failing check's message: enough to send the request again by hand. */
    @Override
    public String toString() {
        String text = bodyText();
        return (raw ? "raw " : "") + method + " " + path + " " + headers + " body(" + (body == null ? 0 : body.length)
                + " bytes)=" + (text.length() > 400 ? text.substring(0, 400) + "..." : text);
    }
}
