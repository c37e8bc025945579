package io.observatory.xds;

import static io.observatory.testing.Percentiles.millis;
import static io.observatory.testing.Percentiles.percentile;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.observatory.ObservatoryApplication;
import io.observatory.health.HealthState;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.testing.CheckedBackends;
import io.observatory.testing.HaproxyProcess;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.NamedBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A measurement, not a timed test: how fast real balancers act on a verdict. The whole service probes three real gRPC
 * backends' health endpoints one after another 500 ms apart (Xray's standard observer) and serves them over xDS and the
 * HAProxy agent port; grpc-java's xDS client (the bootstrap of {@code docs/examples/grpc-xds-bootstrap.json}) calls
 * them in a loop, and Debian's HAProxy follows them through the agent ({@code docs/examples/haproxy.cfg}'s server line,
 * {@code agent-inter 200ms}) and, as the reference in the same run, through its own HTTP check of the same health
 * endpoint ({@code inter 200ms fall 1 rise 1}). Over {@value #FAULTS} faults of one backend's health endpoint it
 * prints, from the writer's publication of the UNHEALTHY verdict, the client's last call to that backend and HAProxy's
 * DOWN through the agent (median, p99); and, from the fault itself, HAProxy's DOWN through the agent beside its DOWN
 * through its own check. HAProxy's state is read every 20 ms, the figures' resolution.
 */
class BalancerReactionBenchmarkIT {

    private static final int FAULTS = Integer.getInteger("benchmark.balancers.faults", 20);
    private static final long POLL_MILLIS = 20;

    @TempDir
    Path dir;

    private CheckedBackends backends;
    private ConfigurableApplicationContext service;
    private ManagedChannel channel;
    private HaproxyProcess haproxy;
    private final AtomicBoolean calling = new AtomicBoolean(true);

    @AfterEach
    void stop() throws Exception {
        calling.set(false);
        if (haproxy != null) {
            haproxy.close();
        }
        if (channel != null) {
            channel.shutdownNow();
        }
        if (service != null) {
            service.close();
        }
        if (backends != null) {
            backends.close();
        }
    }

    @Test
    void faultsWhenVerdictsChangeThenTheGrpcClientAndHaproxyReactMeasuredBesideHaproxysOwnCheck() throws Exception {
        int agent = LoopbackDaemon.freePort();
        List<String> args = new ArrayList<>(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--observatory.standard.subject-selector[0]=b",
                "--observatory.standard.probe-interval=500ms",
                "--observatory.standard.timeout=1s",
                "--observatory.standard.expected-status=200-299",
                "--observatory.xds.enabled=true",
                "--observatory.xds.clusters[0].name=backends",
                "--observatory.xds.clusters[0].selector[0]=b",
                "--observatory.haproxy-agent.port=" + agent,
                "--observatory.haproxy-agent.address=127.0.0.1"));
        backends = CheckedBackends.start(3);
        args.addAll(backends.outboundArgs());
        Map<String, String> servers = backends.healthAddresses();
        service = new SpringApplicationBuilder(ObservatoryApplication.class).run(args.toArray(String[]::new));
        int grpcPort = Integer.parseInt(
                Objects.requireNonNull(service.getEnvironment().getProperty("local.grpc.server.port"), "gRPC port"));

        AtomicLong published = new AtomicLong();
        service.getBean(ObservationStore.class).watch(start -> {}, update -> {
            for (OutboundEvent event : update.transitions()) {
                if (event.tag().equals("b2")
                        && update.observation().get("b2").orElseThrow().verdict() == HealthState.UNHEALTHY) {
                    published.set(System.nanoTime());
                }
            }
        });
        String own = "\nbackend own\n    option httpchk GET /healthz\n    http-check expect status 200\n"
                + "    server b2 " + servers.get("b2") + " check inter 200ms fall 1 rise 1\n";
        haproxy = HaproxyProcess.start(dir, HaproxyProcess.docsConfig(dir, servers, agent) + own);

        channel = CheckedBackends.xdsChannel(dir, grpcPort, "backends");
        AtomicLong lastB2 = new AtomicLong();
        Thread client = new Thread(
                () -> {
                    while (calling.get()) {
                        String backend = NamedBackend.call(channel);
                        if (backend.equals("b2")) {
                            lastB2.set(System.nanoTime());
                        }
                    }
                },
                "benchmark-client");
        client.setDaemon(true);
        client.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> allUp() && lastB2.get() > 0);

        long[] clientMillis = new long[FAULTS];
        long[] agentFromVerdict = new long[FAULTS];
        long[] agentFromFault = new long[FAULTS];
        long[] ownFromFault = new long[FAULTS];
        for (int i = 0; i < FAULTS; i++) {
            published.set(0);
            long fault = System.nanoTime();
            backends.health(1).answer(503);
            long agentDown = 0;
            long ownDown = 0;
            while (agentDown == 0 || ownDown == 0 || published.get() == 0) {
                long now = System.nanoTime();
                if (now - fault > TimeUnit.SECONDS.toNanos(30)) {
                    throw new AssertionError("fault " + i + " not seen in 30 s: " + haproxy.describeWithLog());
                }
                if (agentDown == 0 && status("proxies", "b2").startsWith("DOWN")) {
                    agentDown = now;
                }
                if (ownDown == 0 && status("own", "b2").startsWith("DOWN")) {
                    ownDown = now;
                }
                pause();
            }
            long verdict = published.get();
            long quiet = System.nanoTime();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> System.nanoTime() - lastB2.get() > 500_000_000L
                            && System.nanoTime() - quiet > 500_000_000L);
            clientMillis[i] = lastB2.get() - verdict;
            agentFromVerdict[i] = agentDown - verdict;
            agentFromFault[i] = agentDown - fault;
            ownFromFault[i] = ownDown - fault;

            backends.health(1).answer(200);
            long healed = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).until(() -> allUp() && lastB2.get() > healed);
        }

        System.out.printf(
                "Balancers reacting to a verdict (%d faults of one of 3 backends' health endpoint, probed in turn"
                        + " 500 ms apart; HAProxy read every %d ms): grpc-java xDS client's last call to it after the"
                        + " verdict's publication median %.1f ms, p99 %.1f ms; HAProxy DOWN through the agent"
                        + " (agent-inter 200ms) after the publication median %.0f ms, p99 %.0f ms; from the fault itself,"
                        + " through the agent median %.0f ms, p99 %.0f ms; reference, HAProxy's own HTTP check of the same"
                        + " endpoint (inter 200ms fall 1): median %.0f ms, p99 %.0f ms%n",
                FAULTS,
                POLL_MILLIS,
                millis(percentile(clientMillis, 50)),
                millis(percentile(clientMillis, 99)),
                millis(percentile(agentFromVerdict, 50)),
                millis(percentile(agentFromVerdict, 99)),
                millis(percentile(agentFromFault, 50)),
                millis(percentile(agentFromFault, 99)),
                millis(percentile(ownFromFault, 50)),
                millis(percentile(ownFromFault, 99)));
    }

    private boolean allUp() {
        return haproxy.servers("proxies").values().stream().allMatch(columns -> "UP".equals(columns.get("status")))
                && status("own", "b2").equals("UP");
    }

    private String status(String backend, String server) {
        return haproxy.servers(backend).getOrDefault(server, Map.of()).getOrDefault("status", "");
    }

    /** Waits one polling period of HAProxy's state. */
    private static void pause() {
        await().pollDelay(Duration.ofMillis(POLL_MILLIS))
                .atMost(Duration.ofSeconds(1))
                .until(() -> true);
    }
}
