package io.flashsale.acceptance.browser;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.api.SaleSpec;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.testsupport.ServiceProcess;
import io.flashsale.acceptance.service.ServiceSettings;
import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The buyer page and the ops dashboard in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, which {@code .ci/run} installs; Selenium is pointed at them, nothing is downloaded),
 * against the runnable jar on the test servers. Screenshots land in {@code target/screenshots/}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SalePagesIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final String ADMIN_TOKEN = "browser-test-admin-token-0123456789abcdef";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static ServiceProcess service;
    private static FlashsaleApi api;
    private static int port;

    private WebDriver browser;

    @BeforeAll
    static void startTheService() {
        requireABrowserInCiElseSkipWithoutOne();
        String run = "browser-" + UUID.randomUUID().toString().substring(0, 8);
        String database = TestServices.mariadb().freshDatabase("flashsale_it_browser");
        port = ServiceProcess.freePort();
        Map<String, String> settings = new LinkedHashMap<>(ServiceSettings.onTestServices(run, database, port,
                ADMIN_TOKEN));
        // The page's Pay button, as in the demo profile: the buyer confirms the payment.
        settings.put("flashsale.payment.buyer-confirms", "true");
        // Demo mode on the test servers: the page signs its buyer in through the demo issuer (POST /demo/tokens), whose
        // key verifies buyers when no other key is configured.
        settings.put("flashsale.embedded.enabled", "true");
        settings.remove(TestBuyerTokens.PUBLIC_KEY_LOCATION_PROPERTY);
        service = ServiceProcess.start(ServiceProcess.runnableJar(), List.of("-Xmx512m", "-XX:TieredStopAtLevel=1"),
                settings,
                Path.of("target", "browser", run + ".log")).awaitReady(Duration.ofMinutes(3));
        api = FlashsaleApi.inDemoMode(port, ADMIN_TOKEN);
    }

    /**
     * In CI ({@code CI=true}, which {@code .ci/run} sets) a missing browser fails the run; on a developer's machine
     * without Chromium the class is skipped with the reason, so {@code ./mvnw verify} passes with only a JDK.
     */
    private static void requireABrowserInCiElseSkipWithoutOne() {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String missing = "no executable " + CHROMIUM + " and " + CHROMEDRIVER
                + " (Debian's chromium and chromium-driver)";
        if (!installed && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true requires the browser tests, but there is " + missing
                    + ": install them (.ci/run does)");
        }
        if (!installed) {
            // Failsafe reports a class skipped in @BeforeAll as "Tests run: 0" without the reason: print it.
            String reason = "browser tests skipped: " + missing + "; outside CI only (CI is not true)";
            System.out.println("[flashsale-tests] SalePagesIT " + reason);
            assumeTrue(false, reason);
        }
    }

    @AfterAll
    static void stopTheService() {
        if (service != null) {
            service.stop(Duration.ofSeconds(30));
        }
    }

    @BeforeEach
    void openABrowser() {
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--window-size=1100,900", "--no-first-run", "--disable-background-networking");
        // The console, where the browser reports what a Content-Security-Policy refused.
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(driver, options);
    }

    @AfterEach
    void closeTheBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void givenAnOpenSale_whenABuyerReservesAndPaysOnThePage_thenThePageFollowsTheOrderToPaid() throws IOException {
        String saleId = openSale(3, 1);

        page("/sales/" + saleId);
        signIn("alice-" + saleId);
        waitForText("available-phone", "3");
        assertThat(testId("countdown").getText()).isEqualTo("On sale now");
        testId("buy").click();

        waitForState("ORDERED");
        screenshot("buyer-page-ordered");
        testId("pay").click();
        waitForState("PAID");
        assertThat(testId("outcome").getText()).contains("Paid");
        assertThat(ledger(saleId).path("sold").asLong()).isEqualTo(1);
    }

    @Test
    void givenAnUnchangedSale_whenThePagePolls_thenItIsAnsweredNotModifiedAndStillSeesTheNextChange() {
        String saleId = openSale(1, 1);

        page("/sales/" + saleId);
        signIn("erin-" + saleId);
        waitForText("available-phone", "1");
        waiting().until(driver -> unchangedPolls() >= 2);
        assertThat(testId("available-phone").getText()).as("a 304 keeps what the page shows").isEqualTo("1");
        testId("buy").click();

        waitForText("available-phone", "0");
    }

    /** The polls of the sale the service answered 304 Not Modified, as the page counts them. */
    private int unchangedPolls() {
        String counted = testId("sale-name").getDomAttribute("data-unchanged-polls");
        return counted == null ? 0 : Integer.parseInt(counted);
    }

    @Test
    void givenALimitOfTwo_whenTheBuyButtonIsDoubleClicked_thenExactlyOneUnitIsReserved() {
        String saleId = openSale(10, 2);

        page("/sales/" + saleId);
        signIn("bob-" + saleId);
        waitForText("available-phone", "10");
        new Actions(browser).doubleClick(testId("buy")).perform();

        waitForState("ORDERED");
        JsonNode ledger = ledger(saleId);
        assertThat(ledger.path("reserved").asLong() + ledger.path("sold").asLong()).isEqualTo(1);
        assertThat(ledger.path("available").asLong()).isEqualTo(9);
    }

    @Test
    void givenTwentyPagesRacingForFiveUnits_whenEveryBuyerClicks_thenExactlyFiveAreReserved() {
        String saleId = openSale(5, 1);
        List<String> tabs = new ArrayList<>();
        for (int buyer = 0; buyer < 20; buyer++) {
            if (buyer > 0) {
                browser.switchTo().newWindow(WindowType.TAB);
            }
            tabs.add(browser.getWindowHandle());
            page("/sales/" + saleId);
            signIn("racer-" + buyer + "-" + saleId);
            waitForText("available-phone", "5");
        }
        for (String tab : tabs) {
            browser.switchTo().window(tab);
            testId("buy").click();
        }

        List<String> outcomes = new ArrayList<>();
        for (String tab : tabs) {
            browser.switchTo().window(tab);
            waiting().until(driver -> List.of("ORDERED", "SOLD_OUT")
                    .contains(testId("outcome").getDomAttribute("data-state")));
            outcomes.add(testId("outcome").getDomAttribute("data-state"));
        }
        assertThat(outcomes).filteredOn("ORDERED"::equals).hasSize(5);
        assertThat(outcomes).filteredOn("SOLD_OUT"::equals).hasSize(15);
        JsonNode ledger = ledger(saleId);
        assertThat(ledger.path("sold").asLong() + ledger.path("reserved").asLong()).isEqualTo(5);
        assertThat(ledger.path("available").asLong()).isZero();
    }

    /** The pages' Content-Security-Policy as the browser enforces it: their own files run, an injected inline script not. */
    @Test
    void givenThePagesPolicy_whenAnInlineScriptIsInjected_thenTheBrowserRunsOnlyThePagesOwnFiles() {
        for (String path : List.of("/ops", "/sales/" + openSale(1, 1))) {
            page(path);
            JavascriptExecutor script = (JavascriptExecutor) browser;
            // The page's own file ran: it filled the page (the sale's name, or the token saved for the session).
            waiting().until(driver -> path.equals("/ops")
                    ? script.executeScript("return document.getElementById('token') !== null") == Boolean.TRUE
                    : !testId("sale-name").getText().startsWith("Loading"));

            script.executeScript("const injected = document.createElement('script');"
                    + "injected.textContent = 'window.injectedRan = true;';"
                    + "document.body.appendChild(injected);");

            assertThat(script.executeScript("return window.injectedRan === true;")).as(path).isEqualTo(false);
        }
    }

    /** Swagger UI under the API docs' policy: it renders every operation, and the browser refuses nothing of it. */
    @Test
    void givenTheApiDocsPolicy_whenSwaggerUiIsOpened_thenItRendersTheApiAndTheBrowserRefusesNothing() {
        page("/swagger-ui.html");
        waiting().until(driver -> driver.findElements(By.cssSelector(".swagger-ui .opblock")).size() > 10);
        browser.findElement(By.cssSelector(".swagger-ui .opblock .opblock-summary")).click();
        waiting().until(driver -> !driver.findElements(By.cssSelector(".swagger-ui .opblock-body")).isEmpty());

        List<String> refused = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy") || message.contains("Refused"))
                .toList();
        assertThat(refused).as("what the browser refused under the API docs' policy").isEmpty();
    }

    @Test
    void givenTheOpsDashboard_whenABuyerReservesAndRedisLosesAFigure_thenItShowsTheLedgerChangeAndTheRepair()
            throws IOException {
        String saleId = openSale(7, 1);
        page("/ops");
        testId("token").sendKeys(ADMIN_TOKEN);
        testId("sales").sendKeys(saleId);
        testId("save").click();
        waitForAttribute("sale-" + saleId, "data-phase", "OPEN");
        waiting().until(driver -> testId("outbox-depth").getText().matches("\\d+"));
        waitForAttribute("ledger-" + saleId + "-phone", "data-available", "7");

        assertThat(api.send(api.reserve(saleId, "carol-" + saleId, Map.of("requestId", "r-1",
                "items", List.of(Map.of("skuId", "phone", "quantity", 1))))).status()).isEqualTo(202);
        waitForAttribute("ledger-" + saleId + "-phone", "data-available", "6");
        await().atMost(PATIENCE).until(() -> ledger(saleId).path("sold").asLong() == 1);

        try (HotStore redis = new HotStore(TestServices.redis().uri())) {
            assertThat(redis.loseFiguresOf(saleId, "phone")).isPositive();
        }
        testId("reconcile").click();
        waiting().until(driver -> !driver.findElements(
                By.cssSelector("[data-testid='report-" + saleId + "-phone'][data-action]")).isEmpty()
                && !"NONE".equals(driver.findElement(By.cssSelector("[data-testid='report-" + saleId + "-phone']"))
                .getDomAttribute("data-action")));
        waitForAttribute("ledger-" + saleId + "-phone", "data-available", "6");
        assertThat(testId("dead-letters").getText()).isNotBlank();
        screenshot("ops-dashboard-repaired");
    }

    @Test
    void givenTheOpsDashboard_whenADriftAboveTheAutoRepairLimitIsFound_thenItWaitsThereUntilTheOperatorApprovesIt()
            throws IOException {
        String saleId = openSale(30, 1);
        page("/ops");
        testId("token").sendKeys(ADMIN_TOKEN);
        testId("sales").sendKeys(saleId);
        testId("save").click();
        waitForAttribute("ledger-" + saleId + "-phone", "data-available", "30");

        try (HotStore redis = new HotStore(TestServices.redis().uri())) {
            redis.countMoreSold(saleId, "phone", 20);
        }
        testId("reconcile").click();
        waitForAttribute("report-" + saleId + "-phone", "data-action", "NEEDS_REVIEW");
        waiting().until(driver -> !driver.findElements(
                By.cssSelector("[data-testid='approve-" + saleId + "-phone']")).isEmpty());
        screenshot("ops-dashboard-needs-review");

        clickInTable("approve-" + saleId + "-phone");
        waitForText("approve-result", "phone: REPAIRED");
        waiting().until(driver -> driver.findElements(
                By.cssSelector("[data-testid='review-" + saleId + "-phone']")).isEmpty());
        waitForAttribute("ledger-" + saleId + "-phone", "data-available", "30");
        assertThat(ledger(saleId).path("sold").asLong()).isZero();
    }

    @Test
    void givenTheOpsDashboard_whenTheOperatorPausesAndResumesASale_thenBuyersAreRefusedPausedThenReserveAgain() {
        String saleId = openSale(5, 1);
        page("/ops");
        testId("token").sendKeys(ADMIN_TOKEN);
        testId("save").click();
        waitForAttribute("sale-" + saleId, "data-paused", "false");

        clickInTable("pause-" + saleId);
        waitForAttribute("sale-" + saleId, "data-paused", "true");
        ApiAnswer refused = api.send(api.reserve(saleId, "dan-" + saleId, Map.of("requestId", "r-1",
                "items", List.of(Map.of("skuId", "phone", "quantity", 1)))));
        assertThat(refused.status()).as(refused.describe()).isEqualTo(409);
        assertThat(refused.code()).isEqualTo("SALE_PAUSED");

        clickInTable("resume-" + saleId);
        waitForAttribute("sale-" + saleId, "data-paused", "false");
        assertThat(api.send(api.reserve(saleId, "dan-" + saleId, Map.of("requestId", "r-2",
                "items", List.of(Map.of("skuId", "phone", "quantity", 1))))).status()).isEqualTo(202);
    }

    /** A sale that is open now and warmed up, with one product "phone". */
    private static String openSale(long units, int perUserLimit) {
        String saleId = "page-" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        SaleSpec sale = new SaleSpec(saleId, "Browser sale " + saleId, now.minusSeconds(1), now.plus(1, ChronoUnit.HOURS),
                perUserLimit, List.of(SaleSpec.Product.of("phone", units)));
        ApiAnswer created = api.send(api.createSale(sale.toBody()));
        assertThat(created.status()).as(created.describe()).isEqualTo(201);
        assertThat(api.send(api.warmUp(saleId)).status()).isEqualTo(200);
        return saleId;
    }

    private static JsonNode ledger(String saleId) {
        return api.send(api.stockView(saleId)).json().path("items").get(0);
    }

    private void page(String path) {
        browser.get("http://127.0.0.1:" + port + path);
    }

    private void signIn(String buyer) {
        testId("buyer").sendKeys(buyer);
    }

    private WebElement testId(String id) {
        return browser.findElement(By.cssSelector("[data-testid='" + id + "']"));
    }

    /** A button in a table the dashboard redraws every second: a click that met the old row is made on the new one. */
    private void clickInTable(String id) {
        waiting().until(driver -> {
            testId(id).click();
            return true;
        });
    }

    private void waitForText(String id, String text) {
        waiting().until(driver -> !driver.findElements(
                By.cssSelector("[data-testid='" + id + "']")).isEmpty() && text.equals(testId(id).getText()));
    }

    private void waitForAttribute(String id, String attribute, String value) {
        waiting().until(driver -> !driver.findElements(
                By.cssSelector("[data-testid='" + id + "']")).isEmpty()
                && value.equals(testId(id).getDomAttribute(attribute)));
    }

    private void waitForState(String state) {
        waiting().until(driver -> state.equals(testId("outcome").getDomAttribute("data-state")));
    }

    /** The pages redraw their tables every second: an element read mid-redraw is read again. */
    private WebDriverWait waiting() {
        WebDriverWait wait = new WebDriverWait(browser, PATIENCE);
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    private void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
