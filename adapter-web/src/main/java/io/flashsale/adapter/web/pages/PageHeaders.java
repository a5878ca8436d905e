package io.flashsale.adapter.web.pages;

import org.springframework.http.ResponseEntity;

/**
 * What a browser is told about the pages and their files: scripts, styles and calls from this origin only (no inline
 * script or style, no plugin, no form posting elsewhere), never framed, the type as sent, no referrer sent along.
 */
public final class PageHeaders {

    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private PageHeaders() {
    }

    static ResponseEntity.BodyBuilder on(ResponseEntity.BodyBuilder response) {
        return response.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", "no-referrer");
    }
}
