package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;

import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a browser is told and refused (ADR 73): the pages and their files come with a Content-Security-Policy that
 * allows no inline script, no framing, nosniff and no referrer; a state-changing buyer call from another site is
 * refused, one from the service's own pages or from a client that is no browser is not.
 */
class BrowserHardeningIT extends ApiTestBase {

    static final Pattern INLINE_SCRIPT = Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>", Pattern.CASE_INSENSITIVE);

    @Test
    void givenThePagesAndTheirFiles_whenFetched_thenEachCarriesTheBrowserHeaders() {
        for (String path : new String[] {"/ops", "/sales/any-sale", "/pages/ops.js", "/pages/sale.js",
            "/pages/ops.css", "/pages/sale.css"}) {
            Reply reply = get(path);

            assertThat(reply.status()).as(path).isEqualTo(200);
            String policy = reply.header("Content-Security-Policy");
            assertThat(policy).as(path).contains("default-src 'none'", "script-src 'self'", "style-src 'self'",
                    "frame-ancestors 'none'").doesNotContain("unsafe-inline", "unsafe-eval");
            assertThat(reply.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
            assertThat(reply.header("Referrer-Policy")).as(path).isEqualTo("no-referrer");
            assertThat(reply.header("X-Frame-Options")).as(path).isEqualTo("DENY");
        }
        assertThat(get("/pages/ops.js").header("Content-Type")).startsWith("text/javascript");
        assertThat(get("/pages/ops.css").header("Content-Type")).startsWith("text/css");
    }

    @Test
    void givenTheApiDocs_whenFetched_thenEachCarriesABrowserPolicySwaggerUiWorksUnder() {
        for (String path : new String[] {"/swagger-ui/index.html", "/swagger-ui/swagger-initializer.js",
            "/swagger-ui/swagger-ui-bundle.js", "/swagger-ui/swagger-ui.css", "/v3/api-docs",
            "/v3/api-docs/swagger-config"}) {
            Reply reply = get(path);

            assertThat(reply.status()).as(path).isEqualTo(200);
            assertThat(reply.header("Content-Security-Policy")).as(path).contains("default-src 'none'",
                    "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
                    "frame-ancestors 'none'").doesNotContain("unsafe-inline", "unsafe-eval", "*");
            assertThat(reply.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
            assertThat(reply.header("X-Frame-Options")).as(path).isEqualTo("DENY");
            assertThat(reply.header("Referrer-Policy")).as(path).isEqualTo("no-referrer");
        }
        assertThat(INLINE_SCRIPT.matcher(get("/swagger-ui/index.html").body()).find())
                .as("Swagger UI's page has an inline script").isFalse();
    }

    @Test
    void givenTheBuyersPageScript_thenItNeverParsesAValueAsHtml() {
        assertThat(get("/pages/sale.js").body())
                .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(");
    }

    @Test
    void givenThePages_thenTheyHoldNoInlineScriptOrStyle() {
        for (String path : new String[] {"/ops", "/sales/any-sale"}) {
            String html = get(path).body();

            assertThat(INLINE_SCRIPT.matcher(html).find()).as(path + " has an inline script").isFalse();
            assertThat(html).as(path).doesNotContainIgnoringCase("<style").doesNotContain(" style=", " onclick=");
        }
        assertProblem(get("/pages/application.yaml"), 404, "NOT_FOUND");
    }

    @Test
    void givenABrowserOnAnotherSite_whenItReserves_then403AndNothingIsReserved() {
        String sale = openSale(10, item("tee", 10));

        Reply byOrigin = reserve(sale, "alice", lines(null, line("tee", 1)), "Origin", "https://evil.example");
        Reply byFetchMetadata = reserve(sale, "bob", lines(null, line("tee", 1)), "Sec-Fetch-Site", "cross-site",
                "Origin", "http://127.0.0.1:" + port);

        assertProblem(byOrigin, 403, "CROSS_SITE_REQUEST");
        assertProblem(byFetchMetadata, 403, "CROSS_SITE_REQUEST");
        assertThat(ledger(sale, "tee")[1]).as("reserved units").isZero();
    }

    @Test
    void givenTheServicesOwnPageOrAClientThatIsNoBrowser_whenItReserves_then202() {
        String sale = openSale(10, item("tee", 10));

        Reply sameOrigin = reserve(sale, "alice", lines(null, line("tee", 1)), "Origin", "http://127.0.0.1:" + port,
                "Sec-Fetch-Site", "same-origin");
        Reply originOnly = reserve(sale, "bob", lines(null, line("tee", 1)), "Origin", "http://127.0.0.1:" + port);
        Reply noBrowser = reserve(sale, "carol", lines(null, line("tee", 1)));

        assertThat(sameOrigin.status()).as(sameOrigin.body()).isEqualTo(202);
        assertThat(originOnly.status()).as(originOnly.body()).isEqualTo(202);
        assertThat(noBrowser.status()).as(noBrowser.body()).isEqualTo(202);
    }

    @Test
    void givenABrowserOnAnotherSite_whenItCancelsOrPays_then403AndTheReservationStays() {
        String sale = openSale(10, item("tee", 10));
        Reply reserved = reserve(sale, "alice", lines(null, line("tee", 1)));
        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        String id = reserved.json().path("reservationId").asString();

        for (String change : new String[] {"/cancellation", "/payment"}) {
            Reply refused = post("/api/v1/reservations/" + id + change, "", buyerHeader(), signedIn("alice"),
                    "Sec-Fetch-Site", "cross-site");
            assertProblem(refused, 403, "CROSS_SITE_REQUEST");
        }
        Reply view = get("/api/v1/reservations/" + id, buyerHeader(), signedIn("alice"));
        assertThat(view.json().path("status").asString()).as(view.body()).isEqualTo("RESERVED");
    }
}
