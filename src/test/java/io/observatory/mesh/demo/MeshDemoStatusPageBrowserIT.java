package io.observatory.mesh.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.testing.Browser;
import io.observatory.testing.StatusPageSession;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The status page of the mesh demo in a real browser (Debian's headless Chromium through Selenium): the hub's four
 * servers with their dots and captions, the routes, and the witness × entry point matrix with the checker marked;
 * then, without a reload, the story's faults as they come — s4 unreachable from two servers with the two votes in
 * the matrix, w4 unreliable, s1's self-check failing, s2 silent, s3 blocked by the checker. Runs through most of one
 * telling of the story (about a minute), so it runs with the interop profile, as {@code MeshDemoIT} does. A screenshot
 * of each scene is kept in {@code target/browser-artifacts/}.
 */
class MeshDemoStatusPageBrowserIT {

    /**
     * How long the test waits for the next scene: a whole telling and a margin, so that a scene a loaded machine let
     * pass unseen is seen in the next telling (that the hub judges every scene within one telling is
     * {@code MeshDemoIT}'s to hold); on a timeout, the message gives what the hub judged and the page's journal.
     */
    private static final Duration SCENE = MeshDemo.STORY_LENGTH.plusSeconds(10);

    private static final String RED = "rgb(207, 34, 46)";

    private StatusPageSession session;
    private Browser browser;

    @AfterEach
    void stop() {
        if (session != null) {
            session.close();
        }
    }

    private static String server(String name) {
        return "#servers li[data-server='" + name + "']";
    }

    private void awaitCaption(String name, String caption) {
        awaitScene(driver -> caption.equals(browser.text(server(name) + " .caption")));
    }

    private void awaitScene(Function<WebDriver, Boolean> shown) {
        browser.waiting(SCENE)
                .withMessage(() -> "the hub judged " + judged() + "; " + browser.journal())
                .until(shown);
    }

    /** What the hub judges now: each server's status and each unreliable witness. */
    private String judged() {
        MeshJudgement judgement =
                session.service().getBean(MeshHub.class).view().judgement();
        return judgement.servers().stream()
                        .map(server -> server.name() + " " + server.status())
                        .collect(Collectors.joining(", "))
                + judgement.witnesses().stream()
                        .filter(witness -> !witness.reliable())
                        .map(witness -> ", " + witness.name() + " unreliable")
                        .collect(Collectors.joining());
    }

    private String cellClass(String witness, String tag) {
        return browser
                .attributes("#matrix tr[data-witness='" + witness + "'] td[data-tag='" + tag + "']", "class")
                .stream()
                .findFirst()
                .orElse(null);
    }

    private List<String> badges(String witness) {
        return browser.attributes("#matrix tr[data-witness='" + witness + "'] th .badge", "class");
    }

    @Test
    void pageWhenTheStoryPlaysThenEachFaultAppearsLiveWithItsCaptionDotAndVotes() {
        session = StatusPageSession.start("--spring.profiles.active=mesh-demo");
        browser = session.browser();
        ChromeDriver page = browser.driver();
        page.get(session.page());
        page.manage().window().setSize(new Dimension(1400, 950));
        browser.keepJournal("#live, #servers li .caption, #matrix th .badge");

        browser.waiting(Duration.ofSeconds(15))
                .until(driver ->
                        browser.attributes("#servers li", "data-server").size() == 4);
        awaitCaption("s1", "ok");
        assertThat(browser.attributes("#rows tr", "data-tag"))
                .containsExactly("s1/main", "s2/main", "s3/main", "s4/main");
        assertThat(browser.attributes("#routes tr", "data-route")).containsExactly("eu", "world");
        assertThat(browser.text("#routes tr[data-route='eu'] .serves")).isEqualTo("s1, s2");
        assertThat(badges("w1")).containsExactly("badge checker");
        assertThat(browser.text("#matrix tr[data-witness='w1'] td[data-tag='s1/main']"))
                .isEqualTo("own");
        assertThat(cellClass("w2", "s1/main")).isEqualTo("cell ok");
        browser.waiting(Duration.ofSeconds(10))
                .until(driver -> browser.text(server("s1") + " .metrics").startsWith("cpu "));
        assertThat(browser.text(server("s1") + " .metrics"))
                .as("what w1 reads of its machine")
                .matches("cpu \\d+ % · load [0-9.]+ · memory .+ free of .+ · disk .+ free · network in .+/s, out"
                        + " .+/s · tcp \\d+");
        browser.mark();

        awaitCaption("s4", "unreachable from your servers (2 of them)");
        browser.screenshot("status-page-mesh-demo");
        assertThat(browser.style(server("s4") + " .dot", "background-color")).isEqualTo(RED);
        assertThat(browser.text(server("s4")))
                .contains("out of rotation", "cannot reach s4/main: w1 (site de) streak", "w2 (site de) streak");
        assertThat(cellClass("w1", "s4/main")).isEqualTo("cell vote");
        assertThat(cellClass("w2", "s4/main")).isEqualTo("cell vote");
        browser.waiting(Duration.ofSeconds(5))
                .until(driver -> browser.attributes("#rows tr[data-tag='s4/main']", "data-verdict")
                        .equals(List.of("unhealthy")));
        page.findElement(By.cssSelector(server("s4") + " button.name")).click();
        browser.waiting(Duration.ofSeconds(5))
                .until(driver -> browser.attributes("#card", "data-server").equals(List.of("s4")));
        assertThat(browser.text("#card h3")).startsWith("Server s4 — unreachable from your servers (2 of them)");
        assertThat(browser.attributes("#card table.paths tr.vote", "data-witness"))
                .as("the witnesses that cannot reach s4")
                .contains("w1", "w2");
        assertThat(browser.text("#card ol.transitions")).contains("-> unreachable_from_servers(2)");
        assertThat(browser.text("#card")).contains("Whom it reaches", "s1/main", "Metrics", "cpu ");
        browser.screenshot("status-page-mesh-demo-card");

        awaitScene(driver -> badges("w4").contains("badge unreliable"));
        browser.screenshot("status-page-mesh-demo-unreliable");
        awaitCaption("s1", "server unavailable");
        assertThat(browser.text(server("s1"))).contains("self-check");
        awaitCaption("s2", "no data — agent not responding");
        awaitScene(driver -> badges("w2").contains("badge stale"));
        assertThat(browser.attributes(server("s2") + " .metrics .badge", "class"))
                .as("s2's metrics are w2's last known ones")
                .containsExactly("badge stale");
        awaitCaption("s3", "blocked by a checker");
        browser.screenshot("status-page-mesh-demo-blocked");
        awaitScene(driver -> browser.attributes("#incidents tr[data-subject='server/s3'] span.kind", "class")
                .contains("kind critical"));
        assertThat(browser.attributes("#incidents tr[data-subject]", "data-subject"))
                .as("each server's incidents of the story so far, with their availability and strip")
                .contains("server/s1", "server/s3", "server/s4");
        assertThat(browser.text("#incidents tr[data-subject='server/s3'] span.kind"))
                .isEqualTo("BLOCKED");
        browser.screenshot("status-page-mesh-demo-incidents");

        assertThat(browser.sameDocument()).as("no reload").isTrue();
    }
}
