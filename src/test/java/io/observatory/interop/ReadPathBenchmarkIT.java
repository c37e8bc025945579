package io.observatory.interop;

import static io.observatory.testing.SyntheticStatuses.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.observatory.api.RunningServiceTest;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.GetOutboundStatusResponse;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.ExternalCommand;
import io.observatory.testing.ObserverOutput;
import io.observatory.time.ExecutorScheduler;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A measurement, not a timed test: the throughput of Xray's {@code GetOutboundStatus} at 1,000 observed outbounds (or
 * {@code benchmark.outbounds}) next to {@code grpc.health.v1.Health/Check}, the cheapest RPC the same server has,
 * both driven by the same client, nghttp2's {@code h2load}, with the same load ({@value #CONNECTIONS} connections ×
 * {@value #STREAMS} concurrent streams, {@value #REQUESTS} requests per run). The two take turns, {@value #ROUNDS}
 * runs each after {@value #WARM_UP_ROUNDS} unrecorded warm-up runs each (JIT compilation of both paths), and the
 * median run of each (throughput, and the service's CPU per call) is printed with their ratios. Asserts only that
 * every request was answered and that the Xray answer holds every outbound.
 */
class ReadPathBenchmarkIT extends RunningServiceTest {

    private static final int OUTBOUNDS = Integer.getInteger("benchmark.outbounds", 1_000);
    private static final int CONNECTIONS = 4;
    private static final int STREAMS = 32;
    private static final int REQUESTS = 40_000;
    private static final int WARM_UP_ROUNDS = 3;
    private static final int ROUNDS = 5;
    private static final Duration RUN_LIMIT = Duration.ofSeconds(60);
    private static final com.sun.management.OperatingSystemMXBean SERVICE_CPU =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final Pattern THROUGHPUT = Pattern.compile("finished in [^,]+, ([0-9.]+) req/s");
    private static final Pattern SUCCEEDED = Pattern.compile("requests: .* (\\d+) succeeded");

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        for (int i = 0; i < OUTBOUNDS; i++) {
            registerDirectOutbound(registry, i, tag(i), null);
        }
    }

    @Autowired
    private ObservationStore store;

    @Autowired
    private ExecutorScheduler writer;

    @Autowired
    private ObservationUpdater updater;

    private static String tag(int i) {
        return String.format("proxy_%05d", i);
    }

    @Test
    void getOutboundStatusThroughputNextToHealthCheck() throws IOException, InterruptedException {
        List<OutboundStatus> statuses = IntStream.range(0, OUTBOUNDS)
                .mapToObj(i -> status(tag(i), true))
                .toList();
        writer.execute(() -> ObserverOutput.publish(updater, statuses));
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> store.current().observed().size() == OUTBOUNDS);
        GetOutboundStatusResponse answer = ObservatoryServiceGrpc.newBlockingStub(channel)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance());
        assertThat(answer.getStatus().getStatusCount()).isEqualTo(OUTBOUNDS);
        HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.getDefaultInstance());

        Path emptyMessage = Files.createTempFile("grpc-empty-message-", ".bin");
        try {
            Files.write(emptyMessage, new byte[5]);
            String xray = ObservatoryServiceGrpc.getGetOutboundStatusMethod().getFullMethodName();
            String health = HealthGrpc.getCheckMethod().getFullMethodName();
            for (int warmUp = 0; warmUp < WARM_UP_ROUNDS; warmUp++) {
                run(xray, emptyMessage);
                run(health, emptyMessage);
            }
            List<Run> xrayRuns = new ArrayList<>();
            List<Run> healthRuns = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                xrayRuns.add(run(xray, emptyMessage));
                healthRuns.add(run(health, emptyMessage));
            }
            Run ours = Run.median(xrayRuns);
            Run reference = Run.median(healthRuns);
            System.out.printf(
                    "Read path, h2load %d connections x %d streams, %d requests per run, median of %d runs"
                            + " after %d warm-up runs:%n",
                    CONNECTIONS, STREAMS, REQUESTS, ROUNDS, WARM_UP_ROUNDS);
            System.out.printf(
                    "  GetOutboundStatus at %d outbounds (%d bytes): %.0f req/s, service CPU %.1f us per call"
                            + " (runs %s)%n",
                    OUTBOUNDS, answer.getSerializedSize(), ours.requestsPerSecond(), ours.cpuMicrosPerCall(), xrayRuns);
            System.out.printf(
                    "  Health/Check (reference):          %.0f req/s, service CPU %.1f us per call" + " (runs %s)%n",
                    reference.requestsPerSecond(), reference.cpuMicrosPerCall(), healthRuns);
            System.out.printf(
                    "  ratio GetOutboundStatus / Health/Check: throughput %.2f, CPU per call %.2f%n",
                    ours.requestsPerSecond() / reference.requestsPerSecond(),
                    ours.cpuMicrosPerCall() / reference.cpuMicrosPerCall());
        } finally {
            Files.deleteIfExists(emptyMessage);
        }
    }

    /**
     * One h2load run of unary calls of {@code method} with {@code body} as the request: its requests per second and
     * the service's CPU time per call (this JVM's, so it includes its own JIT and GC threads).
     */
    private Run run(String method, Path body) throws IOException, InterruptedException {
        long cpuBefore = SERVICE_CPU.getProcessCpuTime();
        String report = ExternalCommand.run(
                RUN_LIMIT,
                List.of(
                        "h2load",
                        "-n",
                        String.valueOf(REQUESTS),
                        "-c",
                        String.valueOf(CONNECTIONS),
                        "-m",
                        String.valueOf(STREAMS),
                        "-t",
                        "1",
                        "-d",
                        body.toString(),
                        "-H",
                        "content-type: application/grpc",
                        "-H",
                        "te: trailers",
                        "http://127.0.0.1:" + grpcPort() + "/" + method));
        double cpuMicrosPerCall = (SERVICE_CPU.getProcessCpuTime() - cpuBefore) / 1e3 / REQUESTS;
        Matcher succeeded = SUCCEEDED.matcher(report);
        assertThat(succeeded.find()).as("h2load report: %s", report).isTrue();
        assertThat(Integer.parseInt(succeeded.group(1)))
                .as("answered calls of %s", method)
                .isEqualTo(REQUESTS);
        Matcher throughput = THROUGHPUT.matcher(report);
        assertThat(throughput.find()).as("h2load report: %s", report).isTrue();
        return new Run(Double.parseDouble(throughput.group(1)), cpuMicrosPerCall);
    }

    /** One run's throughput and the service's CPU microseconds per call. */
    private record Run(double requestsPerSecond, double cpuMicrosPerCall) {

        /** The run of median throughput. */
        static Run median(List<Run> runs) {
            List<Run> sorted = runs.stream()
                    .sorted(Comparator.comparingDouble(Run::requestsPerSecond))
                    .toList();
            return sorted.get(sorted.size() / 2);
        }

        @Override
        public String toString() {
            return String.format("%.0f/s %.1fus", requestsPerSecond, cpuMicrosPerCall);
        }
    }
}
