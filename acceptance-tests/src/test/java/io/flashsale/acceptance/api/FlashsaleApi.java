package io.flashsale.acceptance.api;

import io.flashsale.testsupport.TestBuyerTokens;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.function.Function;

/** The service's HTTP API as the scenarios use it: builds the calls, sends them, one by one or as a crowd. */
public final class FlashsaleApi {

    public static final String ACTIVITIES = "/api/v1/activities";
    public static final String RESERVATIONS = "/api/v1/reservations";
    /** A signed-in buyer's header: {@code Bearer <token>} of the tests' buyer token issuer (ADR 76, ADR 80). */
    public static final String SIGN_IN_HEADER = "Authorization";
    public static final String IDEMPOTENCY_HEADER = "Idempotency-Key";

    // One client for the whole run: its connections are reused from scenario to scenario.
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

    private final URI root;
    private final String adminToken;
    /** A buyer's name -> the value of {@link #SIGN_IN_HEADER} that signs that buyer in. */
    private final Function<String, String> signIn;

    /** Buyers sign in with tokens of the tests' issuer, whose key the test configured the service with. */
    public FlashsaleApi(int port, String adminToken) {
        this(port, adminToken, buyer -> TestBuyerTokens.rsa().bearer(buyer));
    }

    private FlashsaleApi(int port, String adminToken, Function<String, String> signIn) {
        this.root = URI.create("http://127.0.0.1:" + port);
        this.adminToken = adminToken;
        this.signIn = signIn;
    }

    /** A service in demo mode: buyers sign in with tokens of its own demo issuer ({@code POST /demo/tokens}). */
    public static FlashsaleApi inDemoMode(int port, String adminToken) {
        Map<String, String> tokens = new ConcurrentHashMap<>();
        FlashsaleApi plain = new FlashsaleApi(port, adminToken);
        return new FlashsaleApi(port, adminToken, buyer -> tokens.computeIfAbsent(buyer, name -> {
            ApiAnswer issued = plain.send(ApiCall.post("/demo/tokens", Json.write(Map.of("buyer", name))));
            if (issued.status() != 200) {
                throw new IllegalStateException("the demo issuer gave no token: " + issued.describe());
            }
            return "Bearer " + issued.text("token");
        }));
    }

    public ApiCall createSale(Map<String, Object> sale) {
        return asAdmin(ApiCall.post(ACTIVITIES, Json.write(sale)));
    }

    public ApiCall warmUp(String saleId) {
        return asAdmin(ApiCall.post(ACTIVITIES + "/" + saleId + "/warm-up", null));
    }

    public ApiCall stockView(String saleId) {
        return asAdmin(ApiCall.get(ACTIVITIES + "/" + saleId + "/stock"));
    }

    public ApiCall reconcile(String saleId) {
        return asAdmin(ApiCall.post(ACTIVITIES + "/" + saleId + "/reconciliation", null));
    }

    /** The repairs held back for an operator's approval (ADR 85), newest report per product. */
    public ApiCall repairsAwaitingReview(String saleId) {
        return asAdmin(ApiCall.get(ACTIVITIES + "/" + saleId + "/reconciliation/reviews"));
    }

    public ApiCall approveRepair(String saleId, String skuId) {
        return asAdmin(ApiCall.post(ACTIVITIES + "/" + saleId + "/reconciliation/" + skuId + "/approve-repair", null));
    }

    /** A stock change proposed by the operator whose admin token this is (ADR 84). */
    public ApiCall proposeStockChange(String saleId, String operatorToken, Map<String, Object> adjustment) {
        return asOperator(operatorToken,
                ApiCall.post(ACTIVITIES + "/" + saleId + "/stock-adjustments", Json.write(adjustment)));
    }

    /** {@code decision}: {@code approval} or {@code rejection}, by the operator whose admin token this is. */
    public ApiCall decideStockChange(String saleId, long proposalId, String decision, String operatorToken) {
        return asOperator(operatorToken, ApiCall.post(ACTIVITIES + "/" + saleId + "/stock-adjustments/proposals/"
                + proposalId + "/" + decision, null));
    }

    public ApiCall stockChangeProposals(String saleId) {
        return asAdmin(ApiCall.get(ACTIVITIES + "/" + saleId + "/stock-adjustments/proposals"));
    }

    public ApiCall stockAdjustments(String saleId) {
        return asAdmin(ApiCall.get(ACTIVITIES + "/" + saleId + "/stock-adjustments"));
    }

    public ApiCall sale(String saleId) {
        return ApiCall.get(ACTIVITIES + "/" + saleId);
    }

    public ApiCall reserve(String saleId, String buyerId, Map<String, Object> request) {
        return signedIn(buyerId, ApiCall.post(ACTIVITIES + "/" + saleId + "/reservations", Json.write(request)));
    }

    public ApiCall reservation(String buyerId, String reservationId) {
        return signedIn(buyerId, ApiCall.get(RESERVATIONS + "/" + reservationId));
    }

    public ApiCall archive(String saleId) {
        return asAdmin(ApiCall.post(ACTIVITIES + "/" + saleId + "/archive", null));
    }

    public ApiCall pause(String saleId) {
        return asAdmin(ApiCall.post(ACTIVITIES + "/" + saleId + "/pause", null));
    }

    public ApiCall resume(String saleId) {
        return asAdmin(ApiCall.post(ACTIVITIES + "/" + saleId + "/resume", null));
    }

    /** A new start and/or end (null: kept) for the sale's window. */
    public ApiCall moveWindow(String saleId, Map<String, Object> window) {
        return asAdmin(ApiCall.patch(ACTIVITIES + "/" + saleId, Json.write(window)));
    }

    public ApiCall pay(String buyerId, String reservationId) {
        return signedIn(buyerId, ApiCall.post(RESERVATIONS + "/" + reservationId + "/payment", null));
    }

    public ApiCall cancel(String buyerId, String reservationId) {
        return signedIn(buyerId, ApiCall.post(RESERVATIONS + "/" + reservationId + "/cancellation", null));
    }

    /** The call made by {@code buyerId}, signed in. */
    public ApiCall signedIn(String buyerId, ApiCall call) {
        return call.signedInAs(buyerId, SIGN_IN_HEADER, signIn.apply(buyerId));
    }

    public ApiCall asAdmin(ApiCall call) {
        return asOperator(adminToken, call);
    }

    /** The call made with one operator's own admin token. */
    public ApiCall asOperator(String operatorToken, ApiCall call) {
        return call.withHeader("Authorization", "Bearer " + operatorToken);
    }

    public ApiAnswer send(ApiCall call) {
        HttpRequest.Builder request = HttpRequest.newBuilder(root.resolve(call.path()))
                .timeout(ANSWER_TIMEOUT)
                .method(call.method(), call.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(call.body()));
        call.headers().forEach((name, value) -> {
            if (value != null) {
                request.header(name, value);
            }
        });
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new ApiAnswer(call, response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("no answer to " + call.method() + " " + call.path(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + call.path(), e);
        }
    }

    /** Sends all calls released at the same instant; the answers come back in the order of the calls. */
    public List<ApiAnswer> sendTogether(List<ApiCall> calls) {
        return new Crowd(this).send(calls);
    }
}
