package io.observatory.mesh.demo;

import io.netty.channel.EventLoopGroup;
import io.observatory.ObservatoryApplication;
import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.FleetServerSettings;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.witness.MeshWitnessRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Profile;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;
import org.springframework.stereotype.Component;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.tcp.TcpServer;

/**
 * The mesh demo (profile {@code mesh-demo}): this process is the hub; the demo starts, on loopback, each server's
 * SOCKS5 entry point ({@link DemoSocksProxy}, refusing chosen witnesses), each server's service port (what its
 * witness's {@code tcp} self-check connects to), an HTTP target answering 204, and one witness per server — each a
 * whole Observatory in this process with its own probe source address {@code 127.0.0.1x} — then plays {@link #STORY},
 * which repeats every {@link #STORY_LENGTH}. Starts after the hub's gRPC server, stops before it.
 */
@Component
@Profile("mesh-demo")
class MeshDemo implements SmartLifecycle, ApplicationListener<GrpcServerStartedEvent> {

    /** How long one telling of the story lasts before it starts again. */
    static final Duration STORY_LENGTH = Duration.ofSeconds(60);

    private static final Logger log = LoggerFactory.getLogger(MeshDemo.class);

    /** The scripted story: at each second, what breaks or heals. Every status appears and heals within 60 s. */
    private static final List<Scene> STORY = List.of(
            new Scene(
                    8,
                    "s4's entry point refuses w1 and w2, two servers in one country (site de): expect s4"
                            + " UNREACHABLE_FROM_SERVERS(2), out of rotation (a moment of BLOCKED first when w1, the"
                            + " checker, reaches its streak first)",
                    demo -> demo.refuse(3, 0, 1)),
            new Scene(
                    14,
                    "s4 reachable again: expect s4 OK once each witness has 3 successes in a row (a moment of BLOCKED"
                            + " or PAIR_CUT between)",
                    demo -> demo.refuse(3)),
            new Scene(
                    16,
                    "s2's entry point refuses w3 only: expect s2/main PAIR_CUT, DEGRADED, still in rotation",
                    demo -> demo.refuse(1, 2)),
            new Scene(22, "s2 reachable again: the pair cut heals", demo -> demo.refuse(1)),
            new Scene(
                    24,
                    "w4's outgoing path breaks, as a lone server's in a censoring country (every entry point refuses"
                            + " it; its reports still arrive): expect w4 UNRELIABLE, PAIR_CUT on s1-s3 naming s4,"
                            + " shown but not ranked, nobody removed",
                    demo -> demo.refuseEverywhere(3)),
            new Scene(30, "w4's path works again: expect w4 RELIABLE", demo -> demo.refuseEverywhere(-1)),
            new Scene(
                    32,
                    "s1's service port closes: expect s1 SERVER_UNAVAILABLE naming its tcp check",
                    demo -> demo.service(0, false)),
            new Scene(38, "s1's service is back: expect s1 OK", demo -> demo.service(0, true)),
            new Scene(
                    40,
                    "w2 stops reporting: expect s2 NO_DATA (still in rotation) 3 s after its last report",
                    demo -> demo.witness(1, false)),
            new Scene(
                    46,
                    "w2 reports again (a new process, its sequence starts over): expect s2 OK",
                    demo -> demo.witness(1, true)),
            new Scene(
                    48,
                    "s3's entry point refuses the checker w1 (site de): expect s3 BLOCKED, withheld while s4"
                            + " serves route world",
                    demo -> demo.refuse(2, 0)),
            new Scene(
                    54, "s3 reachable again: every server OK; the story starts again at 60 s", demo -> demo.refuse(2)));

    private final HubSettings mesh;
    private final int targetPort;
    private final int servicePort;
    private final List<DemoSocksProxy> entryPoints = new ArrayList<>();
    private final List<@Nullable DisposableServer> services = new ArrayList<>();
    private final List<ConfigurableApplicationContext> witnesses = new ArrayList<>();
    private @Nullable EventLoopGroup loop;
    private @Nullable DisposableServer target;
    private @Nullable ScheduledExecutorService story;
    private volatile int hubPort = -1;
    private volatile boolean running;

    /**
     * @param grpcServers the hub's gRPC server, a dependency so that Spring starts it first and the witnesses find
     *                    its port
     */
    MeshDemo(
            ObservatoryConfig config,
            @Value("${mesh-demo.target-port}") int targetPort,
            @Value("${mesh-demo.service-port}") int servicePort,
            List<GrpcServerLifecycle> grpcServers) {
        this.mesh = java.util.Objects.requireNonNull(
                config.section(MeshSettings.SECTION).hub(), "the mesh demo runs a hub (observatory.mesh.hub)");
        this.targetPort = targetPort;
        this.servicePort = servicePort;
    }

    @Override
    public void onApplicationEvent(GrpcServerStartedEvent event) {
        hubPort = event.getPort();
    }

    @Override
    public synchronized void start() {
        loop = DemoSocksProxy.loop();
        target = HttpServer.create()
                .host("127.0.0.1")
                .port(targetPort)
                .route(routes -> routes.get(
                        "/generate_204",
                        (request, response) -> response.status(204).send()))
                .bindNow();
        for (int i = 0; i < mesh.servers().size(); i++) {
            FleetServerSettings server = mesh.servers().get(i);
            int port = Objects.requireNonNull(server.entryPoints().get(0).port(), "the demo's entry points are socks");
            entryPoints.add(new DemoSocksProxy(loop, port));
            services.add(openService(i));
        }
        for (int i = 0; i < mesh.witnesses().size(); i++) {
            witnesses.add(startWitness(i));
        }
        story = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mesh-demo-story");
            thread.setDaemon(true);
            return thread;
        });
        for (Scene scene : STORY) {
            // The story stops with its executor.
            var unused = story.scheduleAtFixedRate(
                    () -> play(scene), scene.second(), STORY_LENGTH.toSeconds(), TimeUnit.SECONDS);
        }
        running = true;
        log.info(
                "mesh-demo: hub on 127.0.0.1:{} with {} servers and {} witnesses; watch GET /actuator/observatory"
                        + " (mesh) or observatory.mesh.v1.MeshService/WatchMesh; the story repeats every {} s",
                hubPort,
                mesh.servers().size(),
                witnesses.size(),
                STORY_LENGTH.toSeconds());
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (story != null) {
            story.shutdownNow();
        }
        // Every witness stops reporting before any context closes: closing one disposes Reactor Netty's shared
        // resources, and the probes of the witnesses still running would fail and report false votes.
        witnesses.forEach(witness -> witness.getBean(MeshWitnessRuntime.class).stop());
        witnesses.forEach(ConfigurableApplicationContext::close);
        entryPoints.forEach(DemoSocksProxy::close);
        for (int i = 0; i < services.size(); i++) {
            service(i, false);
        }
        if (target != null) {
            target.disposeNow();
        }
        if (loop != null) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Plays {@code scene}; a scene that fails is logged and played again in the next telling (a periodic task that
     * throws would never run again, and its fault would silently leave the story).
     */
    private void play(Scene scene) {
        if (!running) {
            return;
        }
        log.info("mesh-demo [{}s]: {}", scene.second(), scene.caption());
        try {
            scene.action().accept(this);
        } catch (RuntimeException e) {
            log.warn("mesh-demo [{}s]: the scene failed; it plays again in the next telling", scene.second(), e);
        }
    }

    /** Entry point {@code server} refuses exactly the witnesses {@code witnessIndexes} (none: accepts all). */
    private void refuse(int server, int... witnessIndexes) {
        List<String> sources = new ArrayList<>();
        for (int witness : witnessIndexes) {
            sources.add(sourceAddress(witness));
        }
        entryPoints.get(server).refuseOnly(sources);
    }

    /** Every entry point refuses witness {@code witness}; -1 accepts everyone everywhere. */
    private void refuseEverywhere(int witness) {
        entryPoints.forEach(proxy -> proxy.refuseOnly(witness < 0 ? Set.of() : Set.of(sourceAddress(witness))));
    }

    /** Opens or closes server {@code server}'s service port; once stopped, opens nothing (a scene late for stop). */
    private synchronized void service(int server, boolean open) {
        DisposableServer listening = services.get(server);
        if (open && listening == null && running) {
            services.set(server, openService(server));
        } else if (!open && listening != null) {
            listening.disposeNow();
            services.set(server, null);
        }
    }

    /**
     * Witness {@code index} stops (its reports end: an agent that does not respond) or starts again as if its process
     * restarted (a new process start, its sequence from 1). Its context stays: closing one of several Spring Boot
     * contexts in a process disposes Reactor Netty's shared resources, the hub's management server with them. Once
     * the demo stopped, does nothing.
     */
    private synchronized void witness(int index, boolean on) {
        if (!running) {
            return;
        }
        MeshWitnessRuntime runtime = witnesses.get(index).getBean(MeshWitnessRuntime.class);
        if (on) {
            runtime.start();
        } else {
            runtime.stop();
        }
    }

    /** Server {@code server}'s service port: accepts a connection and closes it, as a listening service would. */
    private DisposableServer openService(int server) {
        return TcpServer.create()
                .host("127.0.0.1")
                .port(servicePort + server)
                .handle((in, out) -> out.then())
                .bindNow();
    }

    /** Witness {@code index}: a whole Observatory in this process, probing from {@code 127.0.0.1<index+1>}. */
    private ConfigurableApplicationContext startWitness(int index) {
        String name = mesh.witnesses().get(index).name();
        return new SpringApplicationBuilder(ObservatoryApplication.class)
                .run(
                        "--spring.profiles.active=mesh-demo-witness",
                        "--spring.main.banner-mode=off",
                        "--spring.grpc.server.port=0",
                        "--spring.grpc.server.address=127.0.0.1",
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--management.endpoints.web.exposure.include=health",
                        // The hub keeps and tells the story's incidents; a witness has none of its own.
                        "--observatory.incidents.enabled=false",
                        "--observatory.mesh.witness.name=" + name,
                        "--observatory.mesh.witness.checks[0].tcp=127.0.0.1:" + (servicePort + index),
                        "--observatory.mesh.witness.hubs[0]=127.0.0.1:" + hubPort,
                        "--observatory.mesh.witness.token-file="
                                + mesh.witnesses().get(index).tokenFile(),
                        "--observatory.probe.source-address=" + sourceAddress(index));
    }

    private static String sourceAddress(int witness) {
        return "127.0.0.1" + (witness + 1);
    }

    /** One moment of the story: at {@code second}, {@code action} breaks or heals something; logged with its caption. */
    private record Scene(int second, String caption, java.util.function.Consumer<MeshDemo> action) {}
}
