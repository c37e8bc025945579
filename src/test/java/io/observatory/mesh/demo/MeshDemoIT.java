package io.observatory.mesh.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WatchMeshRequest;
import io.observatory.mesh.api.v1.WitnessStatus;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.testing.AdsClient;
import io.observatory.testing.Browser;
import io.observatory.testing.HaproxyProcess;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.NotificationReceivers;
import io.observatory.testing.StatusPageSession;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The mesh demo as its README section promises, in one telling of its story, watched at once over gRPC and in a real
 * browser (Debian's headless Chromium through Selenium). Started as a user starts it (profile {@code mesh-demo}):
 * within one telling every status appears in {@code WatchMesh} — UNREACHABLE_FROM_SERVERS, PAIR_CUT, an UNRELIABLE
 * witness with the lone server's marks it shows, SERVER_UNAVAILABLE, NO_DATA, BLOCKED — and heals, and
 * {@code /actuator/observatory} carries the mesh. The status page shows the hub's four servers with their dots and
 * captions, the routes, and the witness × entry point matrix with the checker marked; then, without a reload, the
 * story's faults as they come — s4 unreachable from two servers with the two votes in the matrix, w4 unreliable, s1's
 * self-check failing, s2 silent, s3 blocked by the checker — and each server's incidents. Its incidents are told as
 * the demo's configuration says, here to real receivers on other ports: the BLOCKED scene's e-mail reaches an SMTP
 * server (aiosmtpd) naming the checker, the server and the suggestion to change its IP address, its alert reaches
 * Alertmanager and resolves when the scene ends, and the demo's own webhook log shows the deliveries. A screenshot of
 * each scene is kept in {@code target/browser-artifacts/}. Debian's HAProxy, one server per entry point with the agent
 * check of {@code docs/examples/haproxy.cfg}, takes a server out of rotation with the hub and brings it back; the route
 * {@code eu} is served over xDS as the cluster {@code route/eu}. One run of the demo for both views, about 75 s, so it runs
 * with the interop profile ({@code .ci/run}), not with every build.
 */
@ExtendWith(OutputCaptureExtension.class)
class MeshDemoIT {

    /**
     * How long the browser waits for the next scene: a whole telling and a margin, so that a scene a loaded machine let
     * pass unseen is seen in the next telling (that the hub judges every scene within one telling is the gRPC
     * stream's to hold); on a timeout, the message gives what the hub judged and the page's journal.
     */
    private static final Duration SCENE = MeshDemo.STORY_LENGTH.plusSeconds(10);

    private static final String RED = "rgb(207, 34, 46)";

    @TempDir
    Path dir;

    private NotificationReceivers receivers;
    private StatusPageSession session;
    private Browser browser;
    private ConfigurableApplicationContext demo;
    private ManagedChannel channel;
    private HaproxyProcess haproxy;
    private ScheduledExecutorService poller;

    @AfterEach
    void stop() throws Exception {
        if (poller != null) {
            poller.shutdownNow();
        }
        if (haproxy != null) {
            haproxy.close();
        }
        if (channel != null) {
            channel.shutdownNow();
        }
        if (session != null) {
            session.close();
        }
        if (receivers != null) {
            receivers.close();
        }
    }

    @Test
    void demoWhenStoryPlaysThenEveryStatusAppearsOnTheStreamAndThePageAndHeals(CapturedOutput output) throws Exception {
        receivers = NotificationReceivers.start(dir, false);
        List<String> args = new ArrayList<>(List.of(
                "--spring.profiles.active=mesh-demo",
                // a port of its own, not 0: the demo's webhook is addressed to the server's own port
                "--server.port=" + LoopbackDaemon.freePort(),
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("observatory.db")));
        args.addAll(receivers.serviceArgs());
        int agentPort = LoopbackDaemon.freePort();
        args.add("--observatory.haproxy-agent.port=" + agentPort);
        args.add("--observatory.haproxy-agent.address=127.0.0.1");
        args.add("--observatory.xds.enabled=true");
        session = StatusPageSession.start(args.toArray(String[]::new));
        demo = session.service();
        int grpcPort = Integer.parseInt(
                Objects.requireNonNull(demo.getEnvironment().getProperty("local.grpc.server.port"), "gRPC port"));
        channel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", grpcPort))
                .usePlaintext()
                .build();
        // HAProxy with one server per entry point, each following the hub's verdict through the agent port.
        Map<String, String> entryPoints = new LinkedHashMap<>();
        demo.getBean(ObservatoryConfig.class).observedOutbounds().stream()
                .filter(outbound -> outbound.tag().endsWith("/main"))
                .forEach(outbound -> entryPoints.put(outbound.tag(), "127.0.0.1:" + outbound.port()));
        haproxy = HaproxyProcess.start(dir, HaproxyProcess.docsConfig(dir, entryPoints, agentPort));
        // Each server's status as HAProxy changed it, in order.
        List<String> haproxySaw = new CopyOnWriteArrayList<>();
        Map<String, String> lastStatus = new ConcurrentHashMap<>();
        poller = Executors.newSingleThreadScheduledExecutor();
        poller.scheduleWithFixedDelay(
                () -> {
                    try {
                        haproxy.servers("proxies").forEach((server, columns) -> {
                            String status = columns.get("status");
                            if (!status.equals(lastStatus.put(server, status))) {
                                haproxySaw.add(server + " " + status);
                            }
                        });
                    } catch (RuntimeException e) {
                        haproxySaw.add("unreadable: " + e);
                    }
                },
                0,
                100,
                TimeUnit.MILLISECONDS);
        // What the stream showed within the first 75 s of the demo: every scene, though the browser may take longer.
        Instant deadline = Instant.now().plusSeconds(75);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<GetMeshResponse> views = new CopyOnWriteArrayList<>();
        MeshServiceGrpc.newStub(channel).watchMesh(WatchMeshRequest.getDefaultInstance(), new StreamObserver<>() {
            @Override
            public void onNext(GetMeshResponse view) {
                views.add(view);
                if (Instant.now().isAfter(deadline)) {
                    return;
                }
                for (ServerStatus server : view.getServersList()) {
                    seen.add(server.getName() + " " + server.getStatus().name().substring("MESH_STATUS_".length()));
                    server.getEntryPointsList()
                            .forEach(entry -> entry.getMarksList()
                                    .forEach(mark -> seen.add(
                                            entry.getTag() + " " + mark + (entry.getRanked() ? "" : " shown"))));
                }
                for (WitnessStatus witness : view.getWitnessesList()) {
                    seen.add(witness.getName() + (witness.getReliable() ? " RELIABLE" : " UNRELIABLE"));
                }
            }

            @Override
            public void onError(Throwable t) {
                seen.add("stream failed: " + t);
            }

            @Override
            public void onCompleted() {}
        });

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

        assertThat(AdsClient.endpoints(channel, Node.newBuilder().setId("demo").build(), "route/eu"))
                .as("the route eu over xDS: its servers' entry points")
                .containsOnlyKeys(entryPoints.get("s1/main"), entryPoints.get("s2/main"));
        assertThat(haproxySaw)
                .as("HAProxy took s4 out of rotation with the hub and back, and s1 when its self-check failed")
                .containsSubsequence("s4_main DOWN (agent)", "s4_main UP")
                .contains("s1_main DOWN (agent)");

        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(seen)
                        .contains(
                                "s4 UNREACHABLE_FROM_SERVERS",
                                "s2/main PAIR_CUT",
                                "w4 UNRELIABLE",
                                "s1/main PAIR_CUT shown",
                                "s1 SERVER_UNAVAILABLE",
                                "s2 NO_DATA",
                                "s3 BLOCKED"));
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            GetMeshResponse last = views.get(views.size() - 1);
            assertThat(last.getServersList())
                    .extracting(ServerStatus::getStatus)
                    .containsOnly(MeshStatus.MESH_STATUS_OK);
            assertThat(last.getServersList())
                    .allSatisfy(server ->
                            assertThat(server.getEntryPoints(0).getMarksList()).isEmpty());
            assertThat(haproxy.servers("proxies").values())
                    .as("HAProxy's servers back in rotation")
                    .allSatisfy(columns -> assertThat(columns.get("status")).isEqualTo("UP"));
            assertThat(last.getWitnessesList())
                    .allSatisfy(witness -> assertThat(witness.getReliable()).isTrue());
        });

        MimeMessage blocked = await().atMost(Duration.ofSeconds(15))
                .until(
                        () -> receivers.messages().stream()
                                .filter(message -> subject(message).contains("opened: server/s3 BLOCKED"))
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
        assertThat(NotificationReceivers.text(blocked))
                .as("the e-mail names the checker, the server and what to do")
                .contains("Checker w1 (de) cannot reach s3")
                .contains("Consider changing its IP address.");
        await().atMost(Duration.ofSeconds(15))
                .until(() -> receivers.alertmanagerReceiver().requests().stream()
                        .anyMatch(request -> request.body().contains("\"status\":\"resolved\"")
                                && request.body().contains("\"subject\":\"server/s3\"")
                                && request.body().contains("ObservatoryBlocked")));
        assertThat(output.getOut())
                .as("the demo's webhook log shows the deliveries")
                .contains("demo-webhook")
                .contains("\"subject\":\"server/s3\"");

        String port = demo.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> json = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/observatory"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(json.body())
                .contains("\"mesh\":{\"servers\":[{\"name\":\"s1\",\"route\":\"eu\",\"status\":\"OK\",\"voters\":0")
                .contains("\"status\":\"RELIABLE\"");
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
        MeshJudgement judgement = demo.getBean(MeshHub.class).view().judgement();
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

    /** The subject, or the failure to read it. */
    private static String subject(MimeMessage message) {
        try {
            return message.getSubject();
        } catch (MessagingException e) {
            return "unreadable: " + e;
        }
    }
}
