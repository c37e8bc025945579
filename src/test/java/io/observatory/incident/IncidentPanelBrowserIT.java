package io.observatory.incident;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Browser;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.StatusPageSession;
import io.observatory.testing.TestTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The incidents panel of the status page in a real browser (Debian's Chromium): an outbound's outage shows as its
 * open incident with availability below 100 % and a red bar today; its card lists the incident with its start, end,
 * duration and reason; after its recovery and a restart of the service on the same database, the page still shows
 * it.
 */
class IncidentPanelBrowserIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private StatusPageSession session;
    private TestTarget target;

    @AfterEach
    void stop() {
        if (session != null) {
            session.close();
        }
        if (target != null) {
            target.close();
        }
    }

    @Test
    void pageWhenAnOutboundFailsThenItsIncidentAvailabilityAndStripShowAndSurviveARestart() {
        int port = ClosedPort.find();
        target = TestTarget.httpOn(port);
        session = start(port);
        Browser browser = session.browser();
        WebDriver page = browser.driver();
        page.get(session.page());
        browser.waiting(WAIT).until(driver -> text(driver, "#incident-summary").startsWith("No incident"));

        target.close();
        target = null;
        browser.waiting(WAIT)
                .until(driver -> !driver.findElements(row("outbound/a", "span.kind.critical"))
                        .isEmpty());
        WebElement row = page.findElement(By.cssSelector("#incidents tr[data-subject='outbound/a']"));
        assertThat(row.findElement(By.cssSelector("span.kind")).getText()).isEqualTo("UNHEALTHY");
        assertThat(row.findElements(By.cssSelector(".bar"))).hasSize(90);
        assertThat(row.findElements(By.cssSelector(".bar")).get(89).getAttribute("class"))
                .isEqualTo("bar critical");
        target = TestTarget.httpOn(port);
        browser.waiting(WAIT).until(driver -> cells(driver).get(1).equals("ok"));
        List<String> availability = cells(page).subList(2, 5);
        assertThat(availability)
                .allSatisfy(share -> assertThat(share).endsWith(" %").isNotEqualTo("100 %"));
        browser.screenshot("incidents-panel");

        session.close();
        session = start(port);
        browser = session.browser();
        page = browser.driver();
        page.get(session.page());
        browser.waiting(WAIT)
                .until(driver ->
                        !driver.findElements(row("outbound/a", "button.name")).isEmpty());
        page.findElement(row("outbound/a", "button.name")).click();
        browser.waiting(WAIT)
                .until(driver -> driver.findElement(By.id("incident-card")).isDisplayed());

        List<WebElement> incidents = page.findElements(By.cssSelector("#incident-card table.history tr[data-id]"));
        assertThat(incidents).hasSize(1);
        List<String> columns = incidents.get(0).findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
        assertThat(columns.get(0)).isEqualTo("UNHEALTHY");
        assertThat(columns.get(1)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ");
        assertThat(columns.get(2)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ");
        assertThat(columns.get(3)).matches("\\d+ s|\\d+ min( \\d+ s)?");
        assertThat(columns.get(4)).contains("now healthy");
        browser.screenshot("incidents-card-after-restart");
    }

    private StatusPageSession start(int port) {
        return StatusPageSession.start(
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("observatory.db"),
                "--observatory.outbounds[0].tag=a",
                "--observatory.outbounds[0].protocol=direct",
                "--observatory.standard.subject-selector[0]=a",
                "--observatory.standard.probe-url=http://127.0.0.1:" + port + "/",
                "--observatory.standard.probe-interval=200ms",
                "--observatory.standard.timeout=1s");
    }

    private static By row(String subject, String inside) {
        return By.cssSelector("#incidents tr[data-subject='" + subject + "'] " + inside);
    }

    private static List<String> cells(WebDriver page) {
        return page.findElements(By.cssSelector("#incidents tr[data-subject='outbound/a'] td")).stream()
                .map(WebElement::getText)
                .toList();
    }

    private static String text(WebDriver page, String selector) {
        List<WebElement> found = page.findElements(By.cssSelector(selector));
        return found.isEmpty() ? "" : found.get(0).getText();
    }
}
