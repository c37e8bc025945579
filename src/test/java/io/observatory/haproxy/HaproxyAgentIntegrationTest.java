package io.observatory.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.ObservatoryApplication;
import io.observatory.testing.HaproxyProcess;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.RecordingHttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Debian's HAProxy follows the verdicts through the agent port, its servers written with the {@code server} line of
 * {@code docs/examples/haproxy.cfg}: a healthy outbound's server is UP; when the outbound's health endpoint fails its
 * server goes DOWN with the verdict's reason, and comes back UP when it heals; a server whose {@code agent-send} names
 * no outbound is DOWN saying so. A connection that sends a line too long, or none, gets what the documentation says.
 */
@ExtendWith(OutputCaptureExtension.class)
class HaproxyAgentIntegrationTest {

    private static final String BACKEND = "proxies";

    @TempDir
    Path dir;

    private final List<RecordingHttpServer> health = new ArrayList<>();
    private ConfigurableApplicationContext service;
    private HaproxyProcess haproxy;

    @AfterEach
    void stop() throws Exception {
        if (haproxy != null) {
            haproxy.close();
        }
        if (service != null) {
            service.close();
        }
        health.forEach(RecordingHttpServer::close);
    }

    @Test
    void haproxyWhenVerdictsChangeThenItsServersGoDownAndUpWithThem(CapturedOutput output) throws Exception {
        int agent = LoopbackDaemon.freePort();
        List<String> args = new ArrayList<>(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--observatory.standard.subject-selector[0]=h",
                "--observatory.standard.probe-interval=200ms",
                "--observatory.standard.timeout=1s",
                "--observatory.standard.expected-status=200-299",
                "--observatory.haproxy-agent.port=" + agent,
                "--observatory.haproxy-agent.address=127.0.0.1",
                "--observatory.haproxy-agent.timeout=300ms"));
        Map<String, String> servers = new LinkedHashMap<>();
        for (int i = 0; i < 2; i++) {
            RecordingHttpServer endpoint = RecordingHttpServer.start();
            health.add(endpoint);
            String tag = "h" + (i + 1);
            args.add("--observatory.outbounds[" + i + "].tag=" + tag);
            args.add("--observatory.outbounds[" + i + "].protocol=direct");
            args.add("--observatory.outbounds[" + i + "].probe-url=" + endpoint.url() + "/healthz");
            servers.put(tag, endpoint.url().substring("http://".length()));
        }
        servers.put("ghost", health.get(0).url().substring("http://".length()));
        service = new SpringApplicationBuilder(ObservatoryApplication.class).run(args.toArray(String[]::new));
        haproxy = HaproxyProcess.start(dir, HaproxyProcess.docsConfig(dir, servers, agent));

        awaitStatus("h1", "UP");
        awaitStatus("h2", "UP");
        awaitStatus("ghost", "DOWN");
        assertThat(server("ghost").get("last_agt")).isEqualTo("via agent : down (no outbound \"ghost\")");

        health.get(1).answer(503);
        awaitStatus("h2", "DOWN");
        assertThat(server("h2").get("last_agt"))
                .isEqualTo("via agent : down (outbound h2: unexpected HTTP status 503 (expected: 200-299))");
        assertThat(server("h1").get("status")).isEqualTo("UP");

        health.get(1).answer(200);
        awaitStatus("h2", "UP");

        assertThat(ask(agent, "x".repeat(300) + "\n")).isEqualTo(AgentAnswers.BAD_TAG);
        assertThat(ask(agent, "h1")).as("no newline: closed without an answer").isEmpty();
        assertThat(output.getOut()).containsOnlyOnce("sent no request line within 300ms");
    }

    private void awaitStatus(String server, String status) {
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(100))
                .alias(server + " " + status + " (" + haproxy.describeWithLog() + ")")
                .until(() -> server(server).getOrDefault("status", "").startsWith(status));
    }

    private Map<String, String> server(String name) {
        return haproxy.servers(BACKEND).getOrDefault(name, Map.of());
    }

    /** What the agent answers {@code request}, read until it closes. */
    private static String ask(int port, String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
