package io.observatory.proxycore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.ObservatoryApplication;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.TestPki;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service started as an Xray user starts it: {@code observatory.core.binary} at Debian's {@code v2ray} (4.34) and
 * {@code observatory.core.config-file} at an Xray configuration of VMess, Shadowsocks and Trojan outbounds with an
 * {@code observatory} block, no outbound and no observer of Observatory's own. The servers are real and not ours: a
 * v2ray VMess server, shadowsocks-libev's {@code ss-server} and {@code trojan}; the probe target is an HTTP server in
 * the test.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProxyCoreIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String V2RAY = "/usr/bin/v2ray";
    private static final String VMESS_ID = "b831381d-6324-4d53-ad4f-8cda48b30811";
    private static final String WRONG_ID = "0b7d7c3a-1111-4d53-ad4f-8cda48b30811";
    private static final String SS_PASSWORD = "ss-test-password";
    private static final String SS_METHOD = "chacha20-ietf-poly1305";

    @TempDir
    static Path servers;

    @TempDir
    Path dir;

    private static final String TROJAN_PASSWORD = "trojan-test-password";

    private static LoopbackDaemon vmessServer;
    private static LoopbackDaemon ssServer;
    private static LoopbackDaemon trojanServer;
    private static int vmessPort;
    private static int ssPort;
    private static int trojanPort;
    private static TestTarget target;

    private Path xrayConfig;
    private ConfigurableApplicationContext service;

    @BeforeAll
    static void startServers() throws IOException {
        target = TestTarget.http();
        vmessPort = LoopbackDaemon.freePort();
        Path vmess = Files.writeString(servers.resolve("vmess-server.json"), """
                {"log": {"loglevel": "warning"},
                 "inbounds": [{"listen": "127.0.0.1", "port": %d, "protocol": "vmess",
                               "settings": {"clients": [{"id": "%s", "alterId": 0}]}}],
                 "outbounds": [{"protocol": "freedom"}]}
                """.formatted(vmessPort, VMESS_ID));
        vmessServer = LoopbackDaemon.start(
                "v2ray vmess server",
                List.of(V2RAY, "-config", vmess.toString()),
                vmessPort,
                servers.resolve("vmess-server.log"));
        ssPort = LoopbackDaemon.freePort();
        ssServer = LoopbackDaemon.start(
                "ss-server",
                List.of(
                        "ss-server",
                        "-s",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(ssPort),
                        "-k",
                        SS_PASSWORD,
                        "-m",
                        SS_METHOD),
                ssPort,
                servers.resolve("ss-server.log"));
        trojanPort = LoopbackDaemon.freePort();
        Path trojan = Files.writeString(servers.resolve("trojan-server.json"), """
                {"run_type": "server", "local_addr": "127.0.0.1", "local_port": %d,
                 "remote_addr": "127.0.0.1", "remote_port": %d, "password": ["%s"], "log_level": 2,
                 "ssl": {"cert": "%s", "key": "%s"}}
                """.formatted(
                trojanPort, target.port(), TROJAN_PASSWORD, TestPki.serverCertificate(), TestPki.serverPrivateKey()));
        trojanServer = LoopbackDaemon.start(
                "trojan", List.of("trojan", "-c", trojan.toString()), trojanPort, servers.resolve("trojan.log"));
    }

    @AfterAll
    static void stopServers() {
        for (AutoCloseable server : new AutoCloseable[] {vmessServer, ssServer, trojanServer, target}) {
            if (server != null) {
                try {
                    server.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    @AfterEach
    void stopService() {
        if (service != null) {
            service.close();
        }
    }

    private static String vmess(String tag, String id) {
        return """
                {"tag": "%s", "protocol": "vmess",
                 "settings": {"vnext": [{"address": "127.0.0.1", "port": %d,
                                         "users": [{"id": "%s", "alterId": 0, "security": "auto"}]}]}}""".formatted(tag, vmessPort, id);
    }

    private static String shadowsocks(String tag) {
        return """
                {"tag": "%s", "protocol": "shadowsocks",
                 "settings": {"servers": [{"address": "127.0.0.1", "port": %d, "method": "%s", "password": "%s"}]}}""".formatted(tag, ssPort, SS_METHOD, SS_PASSWORD);
    }

    /** Trojan over TLS; the server's certificate is the throwaway CA's, which the core does not trust. */
    private static String trojan(String tag) {
        return """
                {"tag": "%s", "protocol": "trojan",
                 "settings": {"servers": [{"address": "127.0.0.1", "port": %d, "password": "%s"}]},
                 "streamSettings": {"network": "tcp", "security": "tls",
                                    "tlsSettings": {"serverName": "localhost", "allowInsecure": true}}}""".formatted(tag, trojanPort, TROJAN_PASSWORD);
    }

    /** An operator's Xray configuration: an inbound of their own, these outbounds, their routing and observer. */
    private void writeXrayConfig(List<String> outbounds) throws IOException {
        List<String> all = new ArrayList<>(outbounds);
        all.add("{\"tag\": \"direct\", \"protocol\": \"freedom\"}");
        all.add("{\"tag\": \"block\", \"protocol\": \"blackhole\"}");
        replace("""
                // the operator's own file: comments allowed, as in Xray
                {"log": {"loglevel": "warning"},
                 "inbounds": [{"tag": "users", "listen": "127.0.0.1", "port": 1, "protocol": "socks"}],
                 "outbounds": [%s],
                 "routing": {"rules": [{"type": "field", "inboundTag": ["users"], "balancerTag": "fleet"}],
                             "balancers": [{"tag": "fleet", "selector": ["proxy-"]}]},
                 "observatory": {"subjectSelector": ["proxy-"], "probeURL": "%s", "probeInterval": "300ms",
                                 "enableConcurrency": true}}
                """.formatted(String.join(",\n", all), target.url("/generate_204")));
    }

    /** Replaces the file as an editor does: a new file renamed over the old one. */
    private void replace(String content) throws IOException {
        Path fresh = dir.resolve("config.json.tmp");
        Files.writeString(fresh, content);
        Files.move(fresh, xrayConfig, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void startService(String binary) {
        service = new SpringApplicationBuilder(ObservatoryApplication.class)
                .run(
                        "--spring.grpc.server.port=0",
                        "--server.port=0",
                        "--observatory.core.binary=" + binary,
                        "--observatory.core.config-file=" + xrayConfig,
                        "--observatory.core.work-directory=" + dir.resolve("work"),
                        "--observatory.core.restart-delay=200ms",
                        "--observatory.reload.interval=100ms");
    }

    private List<String> observedTags() {
        return service.getBean(ObservationStore.class).current().all().stream()
                .map(OutboundHealth::tag)
                .toList();
    }

    private Optional<OutboundStatus> status(String tag) {
        return service.getBean(ObservationStore.class)
                .current()
                .get(tag)
                .map(OutboundHealth::probe)
                .filter(status -> status.lastTry() != null);
    }

    private boolean alive(String tag) {
        return status(tag).map(OutboundStatus::alive).orElse(false);
    }

    private boolean probedAndDead(String tag) {
        return status(tag).map(status -> !status.alive()).orElse(false);
    }

    @Test
    void xrayConfigWhenPointedAtThenEveryOutboundIsProbedThroughItselfByItsOwnTag() throws IOException {
        xrayConfig = dir.resolve("config.json");
        writeXrayConfig(List.of(
                vmess("proxy-vmess", VMESS_ID), shadowsocks("proxy-ss"), vmess("proxy-vmess-wrong-id", WRONG_ID)));

        startService(V2RAY);

        await().atMost(WAIT)
                .until(() -> alive("proxy-vmess") && alive("proxy-ss") && probedAndDead("proxy-vmess-wrong-id"));
        assertThat(observedTags())
                .as("the file's tags; blackhole carries no probe")
                .containsExactlyInAnyOrder("proxy-vmess", "proxy-ss", "proxy-vmess-wrong-id", "direct");
        assertThat(status("direct"))
                .as("not selected by the file's observatory block")
                .isEmpty();
        assertThat(status("proxy-vmess-wrong-id").orElseThrow().lastErrorReason())
                .as("a VMess server that does not know the id closes the connection: only a probe through the"
                        + " core sees it")
                .isNotBlank();
        assertThat(target.requestCount("/generate_204")).isPositive();
    }

    @Test
    void coreWhenKilledThenRestartedAndStatusesKept() throws Exception {
        xrayConfig = dir.resolve("config.json");
        writeXrayConfig(List.of(vmess("proxy-vmess", VMESS_ID)));
        startService(V2RAY);
        await().atMost(WAIT).until(() -> alive("proxy-vmess"));
        ProxyCoreSupervisor supervisor = service.getBean(ProxyCoreSupervisor.class);
        long first = supervisor.pid().orElseThrow();

        ProcessHandle core = ProcessHandle.of(first).orElseThrow();
        core.destroyForcibly();
        core.onExit().get();

        await().atMost(WAIT)
                .until(() -> supervisor.pid().filter(pid -> pid != first).isPresent());
        await().atMost(WAIT).until(() -> alive("proxy-vmess"));
        long second = supervisor.pid().orElseThrow();
        service.close();
        assertThat(ProcessHandle.of(second).map(ProcessHandle::isAlive).orElse(false))
                .as("the core stopped with the service")
                .isFalse();
        service = null;
    }

    @Test
    void fileWhenEditedThenOutboundsFollowAndInvalidJsonIsOneLineWhileTheLastValidOneStays(CapturedOutput output)
            throws IOException {
        xrayConfig = dir.resolve("config.json");
        writeXrayConfig(List.of(vmess("proxy-vmess", VMESS_ID), shadowsocks("proxy-ss")));
        startService(V2RAY);
        await().atMost(WAIT).until(() -> alive("proxy-vmess") && alive("proxy-ss"));

        writeXrayConfig(List.of(vmess("proxy-vmess", VMESS_ID)));

        await().atMost(WAIT).until(() -> !observedTags().contains("proxy-ss"));
        await().atMost(WAIT).until(() -> alive("proxy-vmess"));

        replace("{\"outbounds\": [ this is not JSON");

        await().atMost(WAIT).until(() -> output.getOut().contains("not valid JSON"));
        assertThat(output.getOut()).contains("observatory.core.config-file: " + xrayConfig + ": not valid JSON");
    }

    @Test
    void outboundWhenTheCoreRefusesItThenOneLineNamingItAndTheOthersAreProbed(CapturedOutput output)
            throws IOException {
        xrayConfig = dir.resolve("config.json");
        writeXrayConfig(List.of(
                vmess("proxy-vmess", VMESS_ID),
                "{\"tag\": \"proxy-typo\", \"protocol\": \"vmesss\", \"settings\": {}}"));

        startService(V2RAY);

        await().atMost(WAIT).until(() -> alive("proxy-vmess"));
        assertThat(observedTags()).doesNotContain("proxy-typo");
        assertThat(output.getOut())
                .contains("observatory.core.config-file: " + xrayConfig + ": outbound \"proxy-typo\" (vmesss): the"
                        + " core refuses it: ");
    }

    @Test
    void binaryWhenMissingThenOneLineAndTheServiceRuns(CapturedOutput output) throws IOException {
        xrayConfig = dir.resolve("config.json");
        writeXrayConfig(List.of(vmess("proxy-vmess", VMESS_ID)));

        startService(dir.resolve("no-such-xray").toString());

        assertThat(output.getOut())
                .contains("observatory.core.binary: " + dir.resolve("no-such-xray") + ": no such file (expected: the"
                        + " xray or v2ray executable); the outbounds of " + xrayConfig + " are not probed");
        assertThat(observedTags()).as("no outbound that nothing could carry").isEmpty();
        assertThat(service.isRunning()).isTrue();
    }
}
