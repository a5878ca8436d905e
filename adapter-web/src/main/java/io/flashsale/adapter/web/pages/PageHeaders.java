package io.flashsale.adapter.web.pages;

import org.springframework.http.ResponseEntity;

/**
 * What a browser is told about the pages and their files: scripts, styles and calls from this origin only (no inline
 * script or style, no plugin, no form posting elsewhere), never framed, the type as sent, no referrer sent along.
 */
public final class PageHeaders {

    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /**
     * The pages' policy with what Swagger UI needs beyond it, nothing inline of anyone else's: its icons are
     * {@code data:} images in its style sheet, and its bundle adds one style element of its own, allowed by that
     * element's hash (Swagger UI 5.32.14; another version may need another hash: SalePagesIT says so). Its scripts and
     * styles are files of this origin, and "Try it out" calls this origin.
     */
    public static final String API_DOCS_POLICY = "default-src 'none'; script-src 'self'; "
            + "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='; connect-src 'self'; "
            + "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private PageHeaders() {
    }

    static ResponseEntity.BodyBuilder on(ResponseEntity.BodyBuilder response) {
        return response.header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", "no-referrer");
    }
}
