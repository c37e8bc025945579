package io.observatory.mesh.hub;

import static io.observatory.testing.Percentiles.millis;
import static io.observatory.testing.Percentiles.percentile;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.Timestamp;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.observatory.ServiceProcess;
import io.observatory.api.v1.ProbeErrorKind;
import io.observatory.mesh.api.v1.EntryPointStatus;
import io.observatory.mesh.api.v1.GetFleetRequest;
import io.observatory.mesh.api.v1.GetFleetResponse;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.PathReport;
import io.observatory.mesh.api.v1.ReportRequest;
import io.observatory.mesh.api.v1.ReportResponse;
import io.observatory.mesh.api.v1.SelfCheck;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WatchMeshRequest;
import io.observatory.mesh.api.v1.WitnessServiceGrpc;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark harness of a mesh hub at fleet size (by default 1,000 witnesses × 1,000 servers reporting every 10 s, a
 * million paths; {@code bench/run} runs it again at 10,000 with {@code k-per-server}): the hub runs in its own JVM
 * ({@link ServiceProcess}, so its CPU time and heap are its own), configured with the servers, one SOCKS entry point
 * each at a documentation address (the hub probes nothing: no observer is configured), and the witnesses, each on one
 * server with its own bearer token file. This JVM plays the witnesses: each has its own token (and its own gRPC
 * connection up to 1,000 of them), asks GetFleet which servers to probe, and sends its whole state (a passing
 * self-check and a path for each server it probes) every report interval, the witnesses' phases spread evenly over the
 * interval. After a warm-up (every
 * server OK in WatchMesh, then {@code benchmark.mesh.warmup-seconds}) the steady window measures:
 * <ul>
 *   <li>the hub process's CPU share over the window (CPU time / wall time / cores), its CPU time per report, and the
 *       share of its thread groups ({@code /proc/<pid>/task}: the writer, which judges; gRPC; mesh-watch, which builds
 *       and sends the WatchMesh messages; the JIT compilers, still busy in a young JVM; GC; the actuator);
 *   <li>heap used (the actuator's {@code jvm_memory_used_bytes{area="heap"}} sampled every 5 s: max and last) and
 *       heap used after a full GC at the end ({@code jcmd GC.run});
 *   <li>the latency from sending a report that changes a verdict to the WatchMesh message that shows the change,
 *       median and p99 over {@code benchmark.mesh.changes} changes spread over the window: per cycle, witness a and
 *       then witness b (two sites) report a streak of 3 against one server (OK with PAIR_CUT, then
 *       UNREACHABLE_FROM_SERVERS), then a and b heal it (OK with PAIR_CUT, then OK);
 *   <li>as the reference, measured in the same window on the same hub: the round-trip time of the witnesses'
 *       periodic reports (no verdict change) and of grpc.health.v1 Health/Check, and the time this JVM takes to
 *       parse the stream's first message (the whole view, without the matrix);
 *   <li>the size of each change's WatchMesh message (the goal: at most 10 KB at any fleet size), beside the whole view's.
 * </ul>
 * Sizes and times come from system properties: {@code -Dbenchmark.mesh.witnesses=1000}, {@code .servers=1000},
 * {@code .sites=20}, {@code .report-interval-seconds=10}, {@code .warmup-seconds=15}, {@code .steady-seconds=60},
 * {@code .changes=100}, {@code .watchers=1} (WatchMesh streams; with more, also the latency until all have the
 * change), {@code .hub-jvm-options=-Xmx1g}, {@code .assignment=full} (or {@code k-per-server}: each witness reports
 * the servers GetFleet hands it), {@code .witnesses-per-server=5}, {@code .connections} (gRPC connections the witnesses
 * share, one each up to 1,000), {@code .startup-seconds=60} (how long the hub may take to start; it prints how long it
 * took). About 2 minutes with the defaults, 6 at 10,000 servers. Asserts only correctness (every change
 * is the next WatchMesh message with the right status and marks, every other server keeps its status, no other
 * message, every report answered), never a speed.
 */
class MeshHubBenchmarkIT {

    private static final int WITNESSES = Integer.getInteger("benchmark.mesh.witnesses", 1_000);
    private static final int SERVERS = Integer.getInteger("benchmark.mesh.servers", 1_000);
    private static final int SITES = Integer.getInteger("benchmark.mesh.sites", 20);
    private static final Duration REPORT_INTERVAL =
            Duration.ofSeconds(Integer.getInteger("benchmark.mesh.report-interval-seconds", 10));
    private static final Duration WARM_UP = Duration.ofSeconds(Integer.getInteger("benchmark.mesh.warmup-seconds", 15));
    private static final Duration STEADY = Duration.ofSeconds(Integer.getInteger("benchmark.mesh.steady-seconds", 60));
    private static final int CHANGES = Integer.getInteger("benchmark.mesh.changes", 100);
    private static final int WATCHERS = Integer.getInteger("benchmark.mesh.watchers", 1);
    private static final String ASSIGNMENT = System.getProperty("benchmark.mesh.assignment", "full");
    private static final int PER_SERVER = Integer.getInteger("benchmark.mesh.witnesses-per-server", 5);
    private static final int CONNECTIONS = Integer.getInteger("benchmark.mesh.connections", Math.min(WITNESSES, 1_000));
    private static final List<String> HUB_JVM_OPTIONS =
            List.of(System.getProperty("benchmark.mesh.hub-jvm-options", "-Xmx1g")
                    .trim()
                    .split("\\s+"));

    private static final int STREAK = 3;
    private static final Duration STARTUP = Duration.ofSeconds(Long.getLong("benchmark.mesh.startup-seconds", 60));
    private static final Duration CHANGE_WITHIN = Duration.ofSeconds(10);
    private static final Duration HEAP_SAMPLE_EVERY = Duration.ofSeconds(5);
    private static final Duration HEALTH_CHECK_EVERY = Duration.ofMillis(100);
    private static final Pattern GRPC_STARTED = Pattern.compile("gRPC Server started, listening on .*, port: (\\d+)");
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");
    private static final Pattern HTTP_STARTED = Pattern.compile("Netty started on port (\\d+) \\(http\\)");
    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final List<ManagedChannel> channels = new ArrayList<>();
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "benchmark-witnesses");
        thread.setDaemon(true);
        return thread;
    });
    private final ScheduledExecutorService samplers = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "benchmark-samplers");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpClient http = HttpClient.newHttpClient();
    private ServiceProcess hub;
    // The steady window, on System.nanoTime(): periodic reports sent and answered within it are the reference.
    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MAX_VALUE;

    @AfterEach
    void stop() throws InterruptedException, IOException {
        timers.shutdownNow();
        samplers.shutdownNow();
        for (ManagedChannel channel : channels) {
            channel.shutdownNow();
        }
        for (ManagedChannel channel : channels) {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
        if (hub != null) {
            hub.close();
        }
    }

    private static String server(int index) {
        return "s" + (index + 1);
    }

    private static String witness(int index) {
        return "w" + (index + 1);
    }

    private static String site(int witness) {
        return "site" + (witness % SITES);
    }

    /** The server witness {@code index} runs on, or -1 for an external vantage point (more witnesses than servers). */
    private static int home(int witness) {
        return witness < SERVERS ? witness : -1;
    }

    /** The status of server {@code index} with no vote against it: OK when a witness reports for it, else NO_DATA. */
    private static MeshStatus baseStatus(int index) {
        return index < WITNESSES ? MeshStatus.MESH_STATUS_OK : MeshStatus.MESH_STATUS_NO_DATA;
    }

    /** The hub's configuration: the fleet, one token file per witness. */
    private static Path hubConfig(Path directory, List<String> tokens) throws IOException {
        StringBuilder yaml = new StringBuilder("observatory:\n  mesh:\n    hub:\n")
                .append("      streak: ")
                .append(STREAK)
                .append("\n      quorum: 2\n")
                .append("      assignment: ")
                .append(ASSIGNMENT)
                .append("\n      witnesses-per-server: ")
                .append(PER_SERVER)
                .append("\n      report-interval: ")
                .append(REPORT_INTERVAL.toMillis())
                .append("ms\n      servers:\n");
        for (int i = 0; i < SERVERS; i++) {
            yaml.append("        - name: ")
                    .append(server(i))
                    .append("\n          route: route")
                    .append(i % 10)
                    .append("\n          entry-points:\n            - { name: main, protocol: socks, address: 192.0.2.")
                    .append(i % 254 + 1)
                    .append(", port: 1080 }\n");
        }
        yaml.append("      witnesses:\n");
        for (int i = 0; i < WITNESSES; i++) {
            Path token = directory.resolve(witness(i) + ".token");
            Files.writeString(token, tokens.get(i) + "\n");
            yaml.append("        - { name: ")
                    .append(witness(i))
                    .append(", site: ")
                    .append(site(i));
            if (home(i) >= 0) {
                yaml.append(", server: ").append(server(home(i)));
            }
            yaml.append(", token-file: '").append(token).append("' }\n");
        }
        Path file = directory.resolve("mesh-hub.yml");
        Files.writeString(file, yaml);
        return file;
    }

    /** One simulated witness: its connection, its token, its whole state and its report sequence. */
    private final class Witness {

        private final int index;
        private final WitnessServiceGrpc.WitnessServiceFutureStub stub;
        private final Timestamp processStart = Timestamp.newBuilder()
                .setSeconds(Instant.now().getEpochSecond())
                .build();
        private final int[] failures = new int[SERVERS];
        // Its path reports as last built, by server (null for its own): a report reuses them, so that this JVM's
        // cost of playing a thousand witnesses stays a small share of the two cores.
        private final PathReport[] paths = new PathReport[SERVERS];
        // The servers it probes: every other one, or those GetFleet handed it.
        private int[] probed;
        private long sequence;

        Witness(int index, ManagedChannel channel, String token) {
            this.index = index;
            Metadata bearer = new Metadata();
            bearer.put(AUTHORIZATION, "Bearer " + token);
            this.stub = WitnessServiceGrpc.newFutureStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer));
            this.probed = IntStream.range(0, SERVERS)
                    .filter(server -> server != home(index))
                    .toArray();
        }

        /** Asks the hub which servers to probe, as a witness does each round. */
        void fetchAssignment() throws Exception {
            GetFleetResponse fleet = stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                    .getFleet(GetFleetRequest.getDefaultInstance())
                    .get();
            this.probed = fleet.getServersList().stream()
                    .mapToInt(server -> Integer.parseInt(server.getName().substring(1)) - 1)
                    .filter(server -> server != home(index))
                    .toArray();
        }

        boolean probes(int server) {
            return Arrays.stream(probed).anyMatch(each -> each == server);
        }

        /** Sets its streak against {@code server} and builds the report that carries it, in one step. */
        synchronized ReportRequest streak(int server, int streak) {
            failures[server] = streak;
            return report();
        }

        /** Its whole current state, with the next sequence number. */
        synchronized ReportRequest report() {
            ReportRequest.Builder report = ReportRequest.newBuilder()
                    .setWitness(witness(index))
                    .setProcessStartTime(processStart)
                    .setSequence(++sequence);
            if (home(index) >= 0) {
                report.addSelfChecks(
                        SelfCheck.newBuilder().setName("tcp 127.0.0.1:443").setPassing(true));
            }
            for (int server : probed) {
                PathReport path = paths[server];
                if (path == null || path.getFailures() != failures[server]) {
                    path = path(server);
                    paths[server] = path;
                }
                report.addPaths(path);
            }
            return report.build();
        }

        private PathReport path(int server) {
            PathReport.Builder path = PathReport.newBuilder()
                    .setServer(server(server))
                    .setEntryPoint("main")
                    .setFailures(failures[server]);
            if (failures[server] == 0) {
                path.setLastSuccess(true)
                        .setLastRttNanos(ThreadLocalRandom.current().nextLong(20_000_000, 80_000_000));
            } else {
                path.setLastErrorKind(ProbeErrorKind.PROBE_ERROR_KIND_CONNECT_TIMEOUT)
                        .setLastError("dial tcp 192.0.2." + (server % 254 + 1) + ":1080: i/o timeout");
            }
            return path.build();
        }

        ListenableFuture<ReportResponse> send(ReportRequest report) {
            return stub.withDeadlineAfter(10, TimeUnit.SECONDS).report(report);
        }
    }

    /** What the benchmark expects of the changed server after a change: its status and its entry point's marks. */
    private record Expected(String server, MeshStatus status, List<String> marks) {

        boolean shownBy(GetMeshResponse view) {
            return view.getServersList().stream()
                    .filter(candidate -> candidate.getName().equals(server))
                    .anyMatch(candidate -> candidate.getStatus() == status
                            && candidate.getEntryPoints(0).getMarksList().equals(marks));
        }
    }

    private record Arrival(long nanos, GetMeshResponse view) {}

    /**
     * What a WatchMesh client holds: each server's last status, from the whole view and the changes after it, each
     * change checked to apply to the version held.
     */
    private static final class HeldView {

        private final Map<String, ServerStatus> servers = new LinkedHashMap<>();
        private long version;
        private int wholeBytes;

        void apply(GetMeshResponse message) {
            if (message.getBaseVersion() == 0) {
                servers.clear();
                wholeBytes = message.getSerializedSize();
            } else {
                assertThat(message.getBaseVersion())
                        .as("the version this change applies to")
                        .isEqualTo(version);
            }
            message.getServersList().forEach(server -> servers.put(server.getName(), server));
            message.getRemovedServersList().forEach(servers::remove);
            version = message.getVersion();
        }
    }

    @Test
    void reportToWatchMeshLatencyCpuAndHeapOfAHubAtFleetSize(@TempDir Path directory) throws Exception {
        assertThat(WITNESSES).as("benchmark.mesh.witnesses").isGreaterThanOrEqualTo(3);
        assertThat(SERVERS).as("benchmark.mesh.servers").isGreaterThanOrEqualTo(4);
        assertThat(SITES).as("benchmark.mesh.sites").isGreaterThanOrEqualTo(2);
        assertThat(WATCHERS).as("benchmark.mesh.watchers").isPositive();
        SecureRandom random = new SecureRandom();
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < WITNESSES; i++) {
            byte[] bytes = new byte[16];
            random.nextBytes(bytes);
            tokens.add(HexFormat.of().formatHex(bytes));
        }
        Path config = hubConfig(directory, tokens);
        long starting = System.nanoTime();
        hub = ServiceProcess.start(
                HUB_JVM_OPTIONS,
                List.of(
                        "--spring.grpc.server.port=0",
                        "--server.port=0",
                        "--spring.grpc.server.address=127.0.0.1",
                        "--server.address=127.0.0.1",
                        "--spring.config.additional-location=file:" + config));
        int grpcPort = Integer.parseInt(hub.awaitMessage(GRPC_STARTED, STARTUP));
        hub.awaitMessage(HTTP_STARTED, STARTUP);
        System.out.printf(
                "mesh hub benchmark: the hub of %,d servers started in %.1f s%n",
                SERVERS, (System.nanoTime() - starting) / 1e9);
        int cores = Runtime.getRuntime().availableProcessors();

        // One WatchMesh stream per watcher, each on its own connection; the first one's messages are checked in full.
        List<BlockingQueue<Arrival>> watchers = new ArrayList<>();
        AtomicReference<Throwable> watchFailure = new AtomicReference<>();
        for (int i = 0; i < WATCHERS; i++) {
            BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
            watchers.add(arrivals);
            MeshServiceGrpc.newStub(channel(grpcPort))
                    .watchMesh(WatchMeshRequest.getDefaultInstance(), new StreamObserver<>() {
                        @Override
                        public void onNext(GetMeshResponse view) {
                            arrivals.add(new Arrival(System.nanoTime(), view));
                        }

                        @Override
                        public void onError(Throwable t) {
                            watchFailure.compareAndSet(null, t);
                        }

                        @Override
                        public void onCompleted() {}
                    });
        }
        BlockingQueue<Arrival> arrivals = watchers.get(0);

        List<Witness> witnesses = new ArrayList<>();
        List<ManagedChannel> pool = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            pool.add(channel(grpcPort));
        }
        for (int i = 0; i < WITNESSES; i++) {
            Witness witness = new Witness(i, pool.get(i % CONNECTIONS), tokens.get(i));
            witness.fetchAssignment();
            witnesses.add(witness);
        }
        int paths =
                witnesses.stream().mapToInt(witness -> witness.probed.length).sum();
        AtomicInteger failedReports = new AtomicInteger();
        AtomicReference<Throwable> firstReportFailure = new AtomicReference<>();
        AtomicLong reportsSent = new AtomicLong();
        ConcurrentLinkedQueue<Long> reportNanos = new ConcurrentLinkedQueue<>();
        long intervalNanos = REPORT_INTERVAL.toNanos();
        int reportBytes = witnesses.get(0).report().getSerializedSize();
        for (Witness witness : witnesses) {
            long offset = intervalNanos * witness.index / WITNESSES;
            timers.scheduleAtFixedRate(
                    () -> {
                        long start = System.nanoTime();
                        reportsSent.incrementAndGet();
                        Futures.addCallback(
                                witness.send(witness.report()),
                                new FutureCallback<>() {
                                    @Override
                                    public void onSuccess(ReportResponse response) {
                                        long end = System.nanoTime();
                                        if (start >= windowStart && end <= windowEnd) {
                                            reportNanos.add(end - start);
                                        }
                                    }

                                    @Override
                                    public void onFailure(Throwable t) {
                                        failedReports.incrementAndGet();
                                        firstReportFailure.compareAndSet(null, t);
                                    }
                                },
                                MoreExecutors.directExecutor());
                    },
                    offset,
                    intervalNanos,
                    TimeUnit.NANOSECONDS);
        }

        // Warm-up: every witness reported (every server at its base status), then WARM_UP more.
        long warmUpDeadline = System.nanoTime()
                + REPORT_INTERVAL.multipliedBy(3).plus(STARTUP).toNanos();
        HeldView held = new HeldView();
        GetMeshResponse whole = null;
        while (!allAtBase(held, null)) {
            Arrival arrival = arrivals.poll(Math.max(0, warmUpDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (arrival == null) {
                throw new AssertionError("WatchMesh: not every server at its base status within the warm-up ("
                        + watchFailure.get() + "); hub log:\n" + hub.tail());
            }
            if (whole == null) {
                whole = arrival.view();
            }
            held.apply(arrival.view());
        }
        // The warm-up is time the JIT needs, spent reading the stream: whatever it brings is not measured.
        long warmUpEnd = System.nanoTime() + WARM_UP.toNanos();
        while (System.nanoTime() < warmUpEnd) {
            Arrival arrival = arrivals.poll(warmUpEnd - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (arrival != null) {
                held.apply(arrival.view());
            }
        }
        watchers.subList(1, WATCHERS).forEach(BlockingQueue::clear);
        for (Arrival arrival = arrivals.poll(); arrival != null; arrival = arrivals.poll()) {
            held.apply(arrival.view());
        }
        assertThat(allAtBase(held, null))
                .as("every server at its base status after the warm-up")
                .isTrue();

        // The steady window.
        List<Long> heapSamples = new ArrayList<>();
        ConcurrentLinkedQueue<Long> healthNanos = new ConcurrentLinkedQueue<>();
        AtomicInteger failedHealthChecks = new AtomicInteger();
        HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel(grpcPort));
        long reportsBefore = reportsSent.get();
        Map<String, Long> threadsBefore = cpuTicksByThreadGroup();
        Duration cpuBefore = cpu();
        long start = System.nanoTime();
        windowEnd = start + STEADY.toNanos();
        windowStart = start;
        var heapSampler = samplers.scheduleAtFixedRate(
                () -> {
                    try {
                        heapUsed().ifPresent(used -> {
                            synchronized (heapSamples) {
                                heapSamples.add(used);
                            }
                        });
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                0,
                HEAP_SAMPLE_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        var healthSampler = samplers.scheduleAtFixedRate(
                () -> {
                    long begin = System.nanoTime();
                    try {
                        health.withDeadlineAfter(5, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance());
                        healthNanos.add(System.nanoTime() - begin);
                    } catch (RuntimeException e) {
                        failedHealthChecks.incrementAndGet();
                    }
                },
                HEALTH_CHECK_EVERY.toMillis() / 2,
                HEALTH_CHECK_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);

        long[] changeNanos = new long[CHANGES];
        long[] allWatchersNanos = new long[CHANGES];
        int messageBytes = 0;
        for (int change = 0; change < CHANGES; change++) {
            expectQuietUntil(arrivals, start + STEADY.toNanos() * change / (CHANGES + 1), "before change " + change);
            int cycle = change / 4;
            int step = change % 4;
            int target = cycle * 37 % SERVERS;
            Witness voter = voters(witnesses, target).get(step % 2);
            Expected expected = switch (step) {
                case 0, 2 -> new Expected(server(target), baseStatus(target), List.of("PAIR_CUT"));
                case 1 -> new Expected(server(target), MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS, List.of());
                default -> new Expected(server(target), baseStatus(target), List.of());
            };
            ReportRequest report = voter.streak(target, step < 2 ? STREAK : 0);
            long sent = System.nanoTime();
            reportsSent.incrementAndGet();
            ReportResponse response = voter.send(report).get(CHANGE_WITHIN.toSeconds(), TimeUnit.SECONDS);
            Arrival arrival = arrivals.poll(
                    Math.max(0, sent + CHANGE_WITHIN.toNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (arrival == null) {
                throw new AssertionError("change " + change + " (" + expected + ") not in WatchMesh within "
                        + CHANGE_WITHIN + " (" + watchFailure.get() + "); report accepted: " + response.getAccepted()
                        + "; hub log:\n" + hub.tail());
            }
            assertThat(expected.shownBy(arrival.view()))
                    .as(
                            "change %d: %s in the next WatchMesh message; got %s",
                            change,
                            expected,
                            arrival.view().getServersList().stream()
                                    .filter(server -> server.getName().equals(expected.server()))
                                    .findFirst())
                    .isTrue();
            held.apply(arrival.view());
            assertThat(allAtBase(held, expected.server()))
                    .as("change %d: every other server at its base status", change)
                    .isTrue();
            changeNanos[change] = arrival.nanos() - sent;
            allWatchersNanos[change] = changeNanos[change];
            for (BlockingQueue<Arrival> other : watchers.subList(1, WATCHERS)) {
                Arrival copy = other.poll(
                        Math.max(0, sent + CHANGE_WITHIN.toNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (copy == null || !expected.shownBy(copy.view())) {
                    throw new AssertionError("change " + change + " (" + expected + ") not the next message of every"
                            + " WatchMesh stream within " + CHANGE_WITHIN + ": " + copy);
                }
                allWatchersNanos[change] = Math.max(allWatchersNanos[change], copy.nanos() - sent);
            }
            messageBytes = Math.max(messageBytes, arrival.view().getSerializedSize());
        }
        expectQuietUntil(arrivals, windowEnd, "after the last change");
        Duration cpuAfter = cpu();
        Map<String, Long> threadsAfter = cpuTicksByThreadGroup();
        long wallNanos = System.nanoTime() - start;
        long reports = reportsSent.get() - reportsBefore;
        heapSampler.cancel(false);
        healthSampler.cancel(false);
        for (BlockingQueue<Arrival> stream : watchers) {
            assertThat(stream)
                    .as("WatchMesh messages besides the %d changes", CHANGES)
                    .isEmpty();
        }
        assertThat(failedReports.get())
                .as("failed Report calls (first: %s)", firstReportFailure.get())
                .isZero();
        assertThat(watchFailure.get()).as("WatchMesh stream error").isNull();
        timers.shutdownNow();
        Optional<Long> heapAfterGc = heapAfterFullGc();

        long[] parseNanos = parseNanos(whole.toByteArray());
        long cpuNanos = cpuAfter.minus(cpuBefore).toNanos();
        long[] rtts = reportNanos.stream().mapToLong(Long::longValue).toArray();
        long[] checks = healthNanos.stream().mapToLong(Long::longValue).toArray();
        long heapMax;
        long heapLast;
        synchronized (heapSamples) {
            heapMax = heapSamples.stream().mapToLong(Long::longValue).max().orElse(-1);
            heapLast = heapSamples.isEmpty() ? -1 : heapSamples.get(heapSamples.size() - 1);
        }
        String fleet = String.format(
                "mesh hub @%dx%d%s", WITNESSES, SERVERS, ASSIGNMENT.equals("full") ? "" : " k=" + PER_SERVER);
        double cpuShare = 100.0 * cpuNanos / wallNanos / cores;
        System.out.printf(
                "%s (%d witnesses x %d servers, %d sites, assignment %s: %,d paths; a %d-byte report of %d paths"
                        + " from each witness every %d s: %.1f reports/s; %d connections; hub JVM %s): steady window"
                        + " %.1f s, %d reports%n",
                fleet,
                WITNESSES,
                SERVERS,
                SITES,
                ASSIGNMENT.equals("full") ? "full" : ASSIGNMENT + " (" + PER_SERVER + ")",
                paths,
                reportBytes,
                witnesses.get(0).probed.length,
                REPORT_INTERVAL.toSeconds(),
                (double) WITNESSES / REPORT_INTERVAL.toSeconds(),
                CONNECTIONS,
                String.join(" ", HUB_JVM_OPTIONS),
                wallNanos / 1e9,
                reports);
        System.out.printf(
                "%s: CPU %.1f%% of %d cores (%.2f CPU s in %.1f s wall; %.2f ms CPU per report)%n",
                fleet, cpuShare, cores, cpuNanos / 1e9, wallNanos / 1e9, millis(cpuNanos) / Math.max(1, reports));
        double jitShare = Double.NaN;
        if (!threadsBefore.isEmpty() && !threadsAfter.isEmpty()) {
            jitShare = 100.0
                    * (threadsAfter.get("JIT") - threadsBefore.getOrDefault("JIT", 0L))
                    * 10_000_000L
                    / wallNanos
                    / cores;
            StringBuilder groups = new StringBuilder();
            long grouped = 0;
            for (String group : threadsAfter.keySet()) {
                long groupNanos = (threadsAfter.get(group) - threadsBefore.getOrDefault(group, 0L)) * 10_000_000L;
                grouped += groupNanos;
                groups.append(String.format(", %s %.1f%%", group, 100.0 * groupNanos / wallNanos / cores));
            }
            long writerNanos = (threadsAfter.get("writer") - threadsBefore.getOrDefault("writer", 0L)) * 10_000_000L;
            System.out.printf(
                    "%s: CPU by threads, %% of %d cores%s, other %.1f%% (writer %.2f ms per report)%n",
                    fleet,
                    cores,
                    groups,
                    100.0 * Math.max(0, cpuNanos - grouped) / wallNanos / cores,
                    millis(writerNanos) / Math.max(1, reports));
        }
        System.out.printf(
                "%s: heap used max %s, last %s (%d samples every %d s), after a full GC at the end %s%n",
                fleet,
                megabytes(heapMax),
                megabytes(heapLast),
                heapSamples.size(),
                HEAP_SAMPLE_EVERY.toSeconds(),
                heapAfterGc.map(MeshHubBenchmarkIT::megabytes).orElse("n/a (jcmd GC.run failed)"));
        System.out.printf(
                "%s: report->WatchMesh over %d verdict changes: median %.2f ms, p99 %.2f ms, max %.2f ms"
                        + " (each change's message at most %,d bytes; the first, whole view %,d KB, parsed in this"
                        + " client in %.2f ms median)%n",
                fleet,
                CHANGES,
                millis(percentile(changeNanos, 50)),
                millis(percentile(changeNanos, 99)),
                millis(percentile(changeNanos, 100)),
                messageBytes,
                held.wholeBytes / 1024,
                millis(percentile(parseNanos, 50)));
        if (WATCHERS > 1) {
            System.out.printf(
                    "%s: report->WatchMesh on all %d WatchMesh streams: median %.2f ms, p99 %.2f ms,"
                            + " max %.2f ms%n",
                    fleet,
                    WATCHERS,
                    millis(percentile(allWatchersNanos, 50)),
                    millis(percentile(allWatchersNanos, 99)),
                    millis(percentile(allWatchersNanos, 100)));
        }
        System.out.printf(
                "%s: reference, same window: Report RTT (no verdict change) over %d reports: median %.2f ms,"
                        + " p99 %.2f ms; grpc.health.v1 Health/Check RTT over %d calls: median %.2f ms, p99 %.2f ms"
                        + "%s%n",
                fleet,
                rtts.length,
                millis(percentile(rtts, 50)),
                millis(percentile(rtts, 99)),
                checks.length,
                millis(percentile(checks, 50)),
                millis(percentile(checks, 99)),
                failedHealthChecks.get() == 0 ? "" : " (" + failedHealthChecks.get() + " failed)");
        System.out.printf(
                "%s: CPU %.1f%% of %d cores%s, heap max %s, report->WatchMesh median %.1f ms p99 %.1f ms,"
                        + " %,d bytes a change (Report RTT median %.1f ms, Health/Check median %.1f ms)%n",
                fleet,
                cpuShare,
                cores,
                Double.isNaN(jitShare) ? "" : String.format(" (of which JIT compilers %.1f%%)", jitShare),
                megabytes(heapMax),
                millis(percentile(changeNanos, 50)),
                millis(percentile(changeNanos, 99)),
                messageBytes,
                millis(percentile(rtts, 50)),
                millis(percentile(checks, 50)));
    }

    /** The first two witnesses that probe server {@code target}: its quorum of 2 (every other one when full). */
    private static List<Witness> voters(List<Witness> witnesses, int target) {
        List<Witness> voters = new ArrayList<>();
        for (int i = 1; i <= WITNESSES && voters.size() < 2; i++) {
            Witness candidate = witnesses.get((target + i) % WITNESSES);
            if (candidate.probes(target)) {
                voters.add(candidate);
            }
        }
        assertThat(voters).as("witnesses that probe server %d", target).hasSize(2);
        return voters;
    }

    /** Every server but {@code except} at its base status in what the client holds, its entry point unmarked. */
    private static boolean allAtBase(HeldView view, @Nullable String except) {
        if (view.servers.size() != SERVERS) {
            return false;
        }
        int i = 0;
        for (ServerStatus server : view.servers.values()) {
            int index = i++;
            if (server.getName().equals(except)) {
                continue;
            }
            if (!server.getName().equals(server(index))
                    || server.getStatus() != baseStatus(index)
                    || server.getEntryPointsList().stream()
                            .map(EntryPointStatus::getMarksCount)
                            .anyMatch(marks -> marks > 0)) {
                return false;
            }
        }
        return true;
    }

    private ManagedChannel channel(int port) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
                .usePlaintext()
                .maxInboundMessageSize(256 * 1024 * 1024)
                .build();
        channels.add(channel);
        return channel;
    }

    /** Thread groups of the hub's CPU time, by thread name prefix ({@code /proc/<pid>/task/<tid>/comm}). */
    private static final List<Map.Entry<String, List<String>>> THREAD_GROUPS = List.of(
            Map.entry("writer", List.of("observatory-wri")),
            Map.entry("gRPC", List.of("grpc-")),
            Map.entry("mesh-watch", List.of("mesh-watch")),
            Map.entry("JIT", List.of("C1 CompilerThre", "C2 CompilerThre")),
            Map.entry("GC", List.of("GC Thread", "G1 ")),
            Map.entry("actuator HTTP", List.of("reactor-http-", "boundedElastic-")));

    /**
     * The hub's CPU time so far per {@link #THREAD_GROUPS} group, in clock ticks of 10 ms ({@code utime + stime} of
     * {@code /proc/<pid>/task/<tid>/stat}), of the threads alive now; empty where {@code /proc} is not readable.
     */
    private Map<String, Long> cpuTicksByThreadGroup() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        THREAD_GROUPS.forEach(group -> ticks.put(group.getKey(), 0L));
        try (var tasks = Files.list(Path.of("/proc", Long.toString(hub.handle().pid()), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long used = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    THREAD_GROUPS.stream()
                            .filter(group -> group.getValue().stream().anyMatch(name::startsWith))
                            .findFirst()
                            .ifPresent(group -> ticks.merge(group.getKey(), used, Long::sum));
                } catch (IOException | RuntimeException e) {
                    // The thread ended meanwhile: its time counts in the process total only.
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return ticks;
    }

    /** The hub process's CPU time so far (user and system, every thread). */
    private Duration cpu() {
        return hub.handle()
                .info()
                .totalCpuDuration()
                .orElseThrow(() -> new AssertionError("the hub process's CPU time is not available here"));
    }

    /**
     * The hub's heap used now, from {@code jcmd <pid> GC.heap_info} ("garbage-first heap total …K, used …K"): read
     * from outside the hub, without scraping its metrics (10,000 servers are 100,000 series, and their scrape every
     * 5 s would be a fifth of the hub's CPU).
     */
    private Optional<Long> heapUsed() throws InterruptedException {
        Optional<String> info = jcmd("GC.heap_info");
        if (info.isEmpty()) {
            return Optional.empty();
        }
        Matcher used = HEAP_USED.matcher(info.get());
        return used.find() ? Optional.of(Long.parseLong(used.group(1)) * 1024) : Optional.empty();
    }

    /** Runs a full GC in the hub ({@code jcmd <pid> GC.run}) and reads its heap used then. */
    private Optional<Long> heapAfterFullGc() throws InterruptedException {
        return jcmd("GC.run").isPresent() ? heapUsed() : Optional.empty();
    }

    /** What {@code jcmd <hub pid> command} printed, when it succeeded within 30 s. */
    private Optional<String> jcmd(String command) throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return Optional.empty();
        }
        try {
            Process process = new ProcessBuilder(
                            jcmd.toString(), Long.toString(hub.handle().pid()), command)
                    .redirectErrorStream(true)
                    .start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return process.exitValue() == 0
                    ? Optional.of(new String(output, StandardCharsets.UTF_8))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** How long this JVM takes to parse the whole view of {@code bytes}, over 50 parses after 20 unmeasured. */
    private static long[] parseNanos(byte[] bytes) throws IOException {
        long[] nanos = new long[50];
        for (int i = -20; i < nanos.length; i++) {
            long begin = System.nanoTime();
            GetMeshResponse parsed = GetMeshResponse.parseFrom(bytes);
            long took = System.nanoTime() - begin;
            assertThat(parsed.getServersCount()).as("the whole view's servers").isEqualTo(SERVERS);
            if (i >= 0) {
                nanos[i] = took;
            }
        }
        return nanos;
    }

    /**
     * Waits until {@code deadlineNanos} on the stream itself: reports that change nothing keep arriving meanwhile,
     * and no WatchMesh message may come of them.
     */
    private static void expectQuietUntil(BlockingQueue<Arrival> stream, long deadlineNanos, String when)
            throws InterruptedException {
        long wait = deadlineNanos - System.nanoTime();
        Arrival unexpected = wait > 0 ? stream.poll(wait, TimeUnit.NANOSECONDS) : null;
        assertThat(unexpected)
                .as("WatchMesh message %s, with no verdict change", when)
                .isNull();
    }

    private static String megabytes(long bytes) {
        return bytes < 0 ? "n/a" : String.format("%.0f MB", bytes / 1024.0 / 1024.0);
    }
}
