package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Browser;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.StatusPageSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * The status page of the demo when reads need the API token ({@code require-for-reads} with a token file), in a real
 * browser: the page asks for the token and shows no outbound, says so when a wrong one is given, shows the outbounds
 * with the right one, keeps it for the tab across a reload, and asks again once told to forget it.
 */
class StatusPageTokenBrowserIT {

    private static final String TOKEN = "YnJvd3Nlci10ZXN0LXRva2VuLW9mLTMyLWJ5dGVz";

    @TempDir
    Path directory;

    private StatusPageSession session;

    @AfterEach
    void stop() {
        if (session != null) {
            session.close();
        }
    }

    private static int rows(WebDriver page) {
        return page.findElements(By.cssSelector("#rows tr")).size();
    }

    private static void submit(WebDriver page, String token) {
        page.findElement(By.id("token-input")).sendKeys(token);
        page.findElement(By.cssSelector("#token-form button[type=submit]")).click();
    }

    @Test
    void pageWhenReadsNeedTheTokenThenItAsksForItSaysWhenItIsWrongAndShowsTheOutboundsWithIt() throws IOException {
        Path tokenFile = Files.writeString(directory.resolve("api-token"), TOKEN + "\n");
        int targets = ClosedPort.find();
        session = StatusPageSession.start(
                "--spring.profiles.active=demo",
                "--demo.port=" + targets,
                "--demo.closed-port=" + (targets + 1),
                "--observatory.api.auth.require-for-reads=true",
                "--observatory.api.auth.token-file=" + tokenFile);
        Browser browser = session.browser();
        WebDriver page = browser.driver();

        page.get(session.page());
        browser.waiting(Duration.ofSeconds(10))
                .until(driver -> driver.findElement(By.id("token")).isDisplayed());
        browser.screenshot("status-page-token-prompt");
        assertThat(page.findElement(By.id("live")).getText()).isEqualTo("token needed");
        assertThat(rows(page)).isZero();

        submit(page, "a-guessed-token");
        browser.waiting(Duration.ofSeconds(5))
                .until(driver ->
                        driver.findElement(By.id("token-reason")).getText().equals("Refused: invalid bearer token"));
        assertThat(rows(page)).isZero();

        submit(page, TOKEN);
        browser.waiting(Duration.ofSeconds(10)).until(driver -> rows(driver) == 5);
        assertThat(page.findElement(By.id("token")).isDisplayed()).isFalse();
        assertThat(page.findElement(By.id("live")).getText()).isEqualTo("live");
        assertThat(page.getCurrentUrl()).doesNotContain(TOKEN);

        page.navigate().refresh();
        browser.waiting(Duration.ofSeconds(10)).until(driver -> rows(driver) == 5);
        assertThat(page.findElement(By.id("token")).isDisplayed())
                .as("kept for the tab")
                .isFalse();
        browser.screenshot("status-page-token-accepted");

        page.findElement(By.id("forget")).click();
        browser.waiting(Duration.ofSeconds(5))
                .until(driver -> driver.findElement(By.id("token")).isDisplayed());
        assertThat(page.findElement(By.id("token-reason")).getText())
                .as("no token given, nothing refused")
                .isEmpty();
        assertThat(rows(page)).as("nothing shown without the token").isZero();
    }
}
