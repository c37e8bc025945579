package io.observatory.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Browser;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.StatusPageSession;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;

/**
 * The status page of the demo in a real browser (Debian's headless Chromium through Selenium), as a person sees it:
 * the demo started as a user starts it (profile {@code demo}, on free ports), every outbound a row with its coloured
 * dot, verdict, error kind and reason; when the demo's targets stop, the rows turn red without a reload, and back when
 * they start again; a typed prefix and a clicked verdict filter the rows and stay in the link. One context for the
 * class (closing a Spring Boot context disposes Reactor Netty's shared resources). Screenshots in
 * {@code target/browser-artifacts/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoStatusPageBrowserIT {

    /** The verdict colours of the page's style sheet, as the browser computes them. */
    private static final String GREEN = "rgb(26, 127, 55)";

    private static final String RED = "rgb(207, 34, 46)";
    private static final List<String> DEMO =
            List.of("demo-closed", "demo-fast", "demo-flaky", "demo-hang", "demo-slow");

    private static StatusPageSession session;
    private static Browser browser;
    private static String page;

    @BeforeAll
    static void start() {
        int targets = ClosedPort.find();
        int closed = ClosedPort.find();
        session = StatusPageSession.start(
                "--spring.profiles.active=demo",
                "--demo.port=" + targets,
                "--demo.closed-port=" + (closed == targets ? targets + 1 : closed));
        browser = session.browser();
        page = session.page();
    }

    @AfterAll
    static void stop() {
        if (session != null) {
            session.close();
        }
    }

    private static String row(String tag) {
        return "#rows tr[data-tag='" + tag + "']";
    }

    private static String cell(String tag, String column) {
        return browser.text(row(tag) + " td." + column);
    }

    private static String dotColour(String tag) {
        return browser.style(row(tag) + " .dot", "background-color");
    }

    private static List<String> shownTags() {
        return browser.attributes("#rows tr", "data-tag");
    }

    private static void awaitVerdict(String tag, String verdict, Duration timeout) {
        browser.waiting(timeout)
                .until(driver -> verdict.equals(browser.attributes(row(tag), "data-verdict").stream()
                        .findFirst()
                        .orElse(null)));
    }

    @Test
    @Order(1)
    void pageWhenTheDemoRunsThenEveryOutboundWithItsDotVerdictErrorAndLastChange() {
        browser.driver().get(page);

        browser.waiting(Duration.ofSeconds(10)).until(driver -> shownTags().equals(DEMO));
        awaitVerdict("demo-fast", "healthy", Duration.ofSeconds(10));
        awaitVerdict("demo-hang", "unhealthy", Duration.ofSeconds(15));
        awaitVerdict("demo-slow", "healthy", Duration.ofSeconds(10));
        browser.screenshot("status-page-demo");

        assertThat(browser.text("#live")).isEqualTo("live");
        assertThat(dotColour("demo-fast")).isEqualTo(GREEN);
        assertThat(cell("demo-fast", "verdict")).isEqualTo("healthy");
        assertThat(cell("demo-fast", "rtt")).endsWith(" ms");
        assertThat(browser.attributes(row("demo-fast") + " td.spark svg polyline", "points"))
                .hasSize(1);
        assertThat(dotColour("demo-closed")).isEqualTo(RED);
        assertThat(cell("demo-closed", "verdict")).isEqualTo("unhealthy");
        assertThat(cell("demo-closed", "rtt")).isEqualTo("failed");
        assertThat(cell("demo-closed", "error"))
                .startsWith("connection_refused")
                .contains("outbound demo-closed (direct): connection refused by 127.0.0.1:");
        assertThat(cell("demo-hang", "error")).startsWith("response_timeout").contains("within 5s");
        assertThat(cell("demo-hang", "ago")).containsPattern("\\d+ s ago").contains("active unknown -> unhealthy");
        int slowMillis =
                Integer.parseInt(cell("demo-slow", "rtt").replace(" ms", "").replace(",", ""));
        assertThat(slowMillis).as("the slow target answers after 300 ms").isGreaterThanOrEqualTo(300);
        assertThat(browser.text("#range")).isEqualTo("1–5 of 5 shown (5 outbounds)");
        assertThat(browser.driver().findElement(By.id("mesh")).isDisplayed())
                .as("no hub, no mesh")
                .isFalse();
    }

    @Test
    @Order(2)
    void pageWhenTheDemoTargetsStopThenTheRowsTurnRedWithoutAReloadAndGreenWhenTheyStartAgain() {
        browser.driver().get(page);
        awaitVerdict("demo-fast", "healthy", Duration.ofSeconds(10));
        browser.mark();
        DemoLab targets = session.service().getBean(DemoLab.class);

        targets.stop();
        awaitVerdict("demo-fast", "unhealthy", Duration.ofSeconds(20));
        awaitVerdict("demo-slow", "unhealthy", Duration.ofSeconds(5));
        browser.screenshot("status-page-demo-targets-stopped");
        String fastError = cell("demo-fast", "error");
        targets.start();
        awaitVerdict("demo-fast", "healthy", Duration.ofSeconds(20));
        awaitVerdict("demo-slow", "healthy", Duration.ofSeconds(10));
        browser.screenshot("status-page-demo-healed");

        assertThat(fastError).startsWith("connection_refused");
        assertThat(dotColour("demo-fast")).isEqualTo(GREEN);
        assertThat(cell("demo-fast", "ago")).contains("active unhealthy -> healthy");
        assertThat(browser.sameDocument()).as("no reload").isTrue();
    }

    @Test
    @Order(3)
    void pageWhenAPrefixIsTypedAndAVerdictChosenThenOnlyThoseRowsAndTheLinkKeepsThem() {
        browser.driver().get(page);
        browser.waiting(Duration.ofSeconds(10)).until(driver -> shownTags().size() == DEMO.size());

        browser.driver().findElement(By.id("prefix")).sendKeys("demo-f");
        browser.waiting(Duration.ofSeconds(5)).until(driver -> shownTags().equals(List.of("demo-fast", "demo-flaky")));
        String link = browser.driver().getCurrentUrl();
        browser.driver().findElement(By.id("prefix")).clear();
        browser.driver().findElement(By.id("prefix")).sendKeys("demo-");
        browser.waiting(Duration.ofSeconds(5)).until(driver -> shownTags().size() == DEMO.size());
        browser.driver()
                .findElement(By.cssSelector(".count[data-verdict='unhealthy']"))
                .click();
        browser.waiting(Duration.ofSeconds(5))
                .until(driver -> shownTags().containsAll(List.of("demo-closed", "demo-hang"))
                        && !shownTags().contains("demo-fast"));
        browser.screenshot("status-page-demo-unhealthy");
        browser.driver().get(link);
        browser.waiting(Duration.ofSeconds(5)).until(driver -> shownTags().equals(List.of("demo-fast", "demo-flaky")));

        assertThat(link).endsWith("#prefix=demo-f&offset=0&limit=100");
        assertThat(browser.driver().findElement(By.id("prefix")).getAttribute("value"))
                .isEqualTo("demo-f");
    }
}
