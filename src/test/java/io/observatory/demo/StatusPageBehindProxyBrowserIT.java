package io.observatory.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Browser;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.StatusPageSession;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's status page behind a reverse proxy that serves the management port under a path prefix, in a real
 * browser: nginx with a plain {@code location /observatory/ { proxy_pass ...; }} and no setting of its own for
 * streams. The prefix's root redirects to the page under the prefix, the page loads its script and style from there,
 * and its live stream comes through nginx unbuffered, so a stopped target turns its row red without a reload.
 */
class StatusPageBehindProxyBrowserIT {

    private static final List<String> DEMO =
            List.of("demo-closed", "demo-fast", "demo-flaky", "demo-hang", "demo-slow");

    @TempDir
    Path workdir;

    private StatusPageSession session;
    private LoopbackDaemon nginx;

    @AfterEach
    void stop() {
        if (session != null) {
            session.close();
        }
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void pageWhenServedUnderAPathPrefixThenItLoadsFromThePrefixAndStaysLive() throws IOException {
        int targets = ClosedPort.find();
        session = StatusPageSession.start(
                "--spring.profiles.active=demo", "--demo.port=" + targets, "--demo.closed-port=" + (targets + 1));
        String management = session.service().getEnvironment().getProperty("local.server.port");
        int port = LoopbackDaemon.freePort();
        nginx = LoopbackDaemon.nginx(
                workdir, port, "location /observatory/ { proxy_pass http://127.0.0.1:" + management + "/; }");
        Browser browser = session.browser();

        browser.driver().get("http://127.0.0.1:" + port + "/observatory/");
        browser.waiting(Duration.ofSeconds(10))
                .until(driver -> browser.attributes("#rows tr", "data-tag").equals(DEMO));
        awaitVerdict(browser, "demo-fast", "healthy", Duration.ofSeconds(10));
        assertThat(browser.driver().getCurrentUrl()).isEqualTo("http://127.0.0.1:" + port + "/observatory/status");
        assertThat(browser.style("#rows tr[data-tag='demo-fast'] .dot", "background-color"))
                .as("the style sheet loaded from under the prefix")
                .isEqualTo("rgb(26, 127, 55)");
        browser.mark();

        session.service().getBean(DemoLab.class).stop();
        awaitVerdict(browser, "demo-fast", "unhealthy", Duration.ofSeconds(20));
        browser.screenshot("status-page-behind-proxy");

        assertThat(browser.text("#live")).isEqualTo("live");
        assertThat(browser.sameDocument())
                .as("changed by the stream through nginx, no reload")
                .isTrue();
    }

    private static void awaitVerdict(Browser browser, String tag, String verdict, Duration timeout) {
        String row = "#rows tr[data-tag='" + tag + "']";
        browser.waiting(timeout)
                .until(driver -> verdict.equals(browser.attributes(row, "data-verdict").stream()
                        .findFirst()
                        .orElse(null)));
    }
}
