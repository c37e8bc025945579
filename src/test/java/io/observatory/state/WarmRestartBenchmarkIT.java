package io.observatory.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.observatory.ServiceProcess;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.state.v1.SavedState;
import io.observatory.state.v1.SavedStatus;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.PortOpening;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, not a timed test: 10,000 direct outbounds on {@code -Xmx256m} writing their state every second. The
 * service is killed with SIGKILL while a write is in progress (the temporary file exists), after a round of its own
 * probes, several times, and each
 * time the state file still reads complete; then the time from the gRPC port opening to the first answer of
 * {@code GetOutboundStatus} that lists every outbound, after a warm restart and after a cold start (the reference: the
 * first round of probes) in the same run.
 */
class WarmRestartBenchmarkIT {

    private static final int OUTBOUNDS = 10_000;
    private static final int KILLS = 5;
    private static final Duration STARTUP = Duration.ofSeconds(120);
    private static final TestTarget TARGET = TestTarget.http();

    @TempDir
    Path directory;

    @AfterAll
    static void stopTarget() {
        TARGET.close();
    }

    @Test
    void tenThousandOutboundsKilledDuringWritesThenRestoredCompleteOnTheFirstAnswer() throws Exception {
        Path config = directory.resolve("warm.yml");
        Files.writeString(config, config());
        Path state = directory.resolve("state");
        Path file = state.resolve(StateSettings.FILE_NAME);
        Path temporary = state.resolve(StateSettings.FILE_NAME + ".tmp");
        int grpcPort = ClosedPort.find();

        Answers cold = firstCompleteAnswer(grpcPort, config, directory.resolve("cold-state"));
        List<String> kills = new ArrayList<>();
        try (ServiceProcess service = start(grpcPort, config, state)) {
            awaitStatuses(file, OUTBOUNDS);
        }
        // Each kill waits for a round of the new process's own probes first: restored statuses keep the time they
        // were measured, and without fresh ones they would age beyond max-age (1 min) over the restarts.
        for (int i = 0; i < KILLS; i++) {
            Instant started = Instant.now();
            try (ServiceProcess service = start(grpcPort, config, state)) {
                awaitMeasuredSince(file, started);
                await().atMost(STARTUP).pollInterval(Duration.ofMillis(1)).until(() -> Files.exists(temporary));
                service.handle().destroyForcibly();
                service.handle().onExit().get(10, TimeUnit.SECONDS);
                StateFile.Read read = StateFile.read(file);
                assertThat(read).as("after kill %d", i + 1).isInstanceOf(StateFile.Loaded.class);
                int statuses = SavedState.parseFrom(((StateFile.Loaded) read).payload())
                        .getStatusesCount();
                assertThat(statuses).as("statuses after kill %d", i + 1).isEqualTo(OUTBOUNDS);
                kills.add(statuses + (Files.exists(temporary) ? " (temporary file left)" : ""));
            }
        }
        Answers warm = firstCompleteAnswer(grpcPort, config, state);

        System.out.printf(
                Locale.ROOT,
                "Warm restart, %d direct outbounds, -Xmx256m, state written every 1 s (%.1f MB):"
                        + " %d SIGKILLs during a write, the file read complete each time with %s statuses; from the gRPC port"
                        + " opening: first answer warm %d ms listing %d outbounds (cold start: %d ms, %d outbounds), every"
                        + " outbound listed warm %d ms, cold start %d ms (the first round of probes)%n",
                OUTBOUNDS,
                Files.size(file) / 1e6,
                KILLS,
                kills,
                warm.first().toMillis(),
                warm.firstCount(),
                cold.first().toMillis(),
                cold.firstCount(),
                warm.complete().toMillis(),
                cold.complete().toMillis());
        assertThat(warm.firstCount())
                .as("outbounds in the first answer after a warm restart")
                .isEqualTo(OUTBOUNDS);
    }

    /**
     * From the gRPC port accepting a connection: the time to the first answer and how many outbounds it listed, and
     * the time to the first answer that listed every outbound.
     */
    private record Answers(Duration first, int firstCount, Duration complete) {}

    /** Starts the service on {@code state} and measures its first answers. */
    private Answers firstCompleteAnswer(int grpcPort, Path config, Path state) throws Exception {
        try (ServiceProcess service = start(grpcPort, config, state)) {
            long open = PortOpening.await(grpcPort, STARTUP);
            ManagedChannel channel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", grpcPort))
                    .usePlaintext()
                    .maxInboundMessageSize(16 << 20)
                    .build();
            try {
                ObservatoryServiceGrpc.ObservatoryServiceBlockingStub xray =
                        ObservatoryServiceGrpc.newBlockingStub(channel);
                int first = count(xray);
                Duration firstAt = Duration.ofNanos(System.nanoTime() - open);
                await().atMost(STARTUP).pollInterval(Duration.ofMillis(20)).until(() -> count(xray) == OUTBOUNDS);
                return new Answers(firstAt, first, Duration.ofNanos(System.nanoTime() - open));
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    private static int count(ObservatoryServiceGrpc.ObservatoryServiceBlockingStub xray) {
        return xray.withDeadlineAfter(10, TimeUnit.SECONDS)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusCount();
    }

    private static ServiceProcess start(int grpcPort, Path config, Path state) throws IOException {
        return ServiceProcess.start(
                List.of("-Xmx256m"),
                List.of(
                        "--spring.grpc.server.port=" + grpcPort,
                        "--server.port=0",
                        "--spring.config.additional-location=file:" + config,
                        "--observatory.state.directory=" + state,
                        "--observatory.state.write-interval=1s"));
    }

    /** Waits for a state file with every outbound's status measured by this process: a round of its own probes. */
    private static void awaitMeasuredSince(Path file, Instant since) {
        await().atMost(STARTUP).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!(StateFile.read(file) instanceof StateFile.Loaded loaded)) {
                return false;
            }
            List<SavedStatus> statuses = SavedState.parseFrom(loaded.payload()).getStatusesList();
            return statuses.size() == OUTBOUNDS
                    && statuses.stream()
                            .allMatch(status -> !Timestamps.instant(status.getMeasuredTime())
                                    .isBefore(since));
        });
    }

    private static void awaitStatuses(Path file, int count) {
        await().atMost(STARTUP)
                .until(() -> StateFile.read(file) instanceof StateFile.Loaded loaded
                        && SavedState.parseFrom(loaded.payload()).getStatusesCount() == count);
    }

    private static String config() {
        StringBuilder yaml = new StringBuilder("observatory:\n  outbounds:\n");
        for (int i = 0; i < OUTBOUNDS; i++) {
            yaml.append(String.format("    - { tag: warm_%05d, protocol: direct }%n", i));
        }
        yaml.append("  standard:\n    subject-selector: [warm_]\n    probe-url: ")
                .append(TARGET.url("/generate_204"))
                .append("\n    probe-interval: 10s\n    enable-concurrency: true\n");
        return yaml.toString();
    }
}
