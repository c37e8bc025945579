package io.observatory.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.observatory.ServiceProcess;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.api.xray.OutboundStatus;
import io.observatory.config.ObservatoryConfig;
import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.PassiveView;
import io.observatory.state.v1.SavedState;
import io.observatory.state.v1.SavedStatus;
import io.observatory.testing.BlackHole;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.Configs;
import io.observatory.testing.PortOpening;
import io.observatory.testing.SyntheticStatuses;
import io.observatory.testing.TestTarget;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Warm restart on the real service in its own JVM: it probes two outbounds to a live target and one to a closed port,
 * writes its state, and is killed with SIGKILL. The target then hangs (a black hole on its port), so the new process's
 * first probes take their 5 s deadline: what the new process on the same state directory serves on its first answer
 * after its gRPC port opens can only be what the old one measured, marked restored.
 */
class WarmRestartTest {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Pattern RESTORED = Pattern.compile("warm restart: (restored .*) from .*");
    private static final Pattern COLD = Pattern.compile("warm restart: (ignoring state file .*|no state file .*)");

    private final int targetPort = ClosedPort.find();
    private final int closedPort = ClosedPort.find();
    private final int grpcPort = ClosedPort.find();
    private AutoCloseable target = TestTarget.httpOn(targetPort);
    private ServiceProcess service;
    private ManagedChannel channel;

    @TempDir
    Path directory;

    @AfterEach
    void cleanUp() throws Exception {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (service != null) {
            service.close();
        }
        target.close();
    }

    @Test
    void restartAfterSigkillThenEveryOutboundServedOnTheFirstAnswerMarkedRestored() throws Exception {
        service = start();
        assertThat(service.awaitMessage(COLD, STARTUP)).startsWith("no state file");
        awaitStateWithStatuses(3);
        awaitPortOpen();
        assertThat(xray().getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                        .getStatus()
                        .getStatusCount())
                .as("the client warmed up on the first process")
                .isEqualTo(3);
        service.handle().destroyForcibly();
        service.handle().onExit().get(10, TimeUnit.SECONDS);
        service.close();
        target.close();
        target = BlackHole.startOn(targetPort);
        SavedState written = SavedState.parseFrom(
                ((StateFile.Loaded) StateFile.read(directory.resolve(StateSettings.FILE_NAME))).payload());

        // A long deadline keeps the restored statuses in place while they are read: the new probes hang.
        service = start(List.of(), List.of("--observatory.standard.timeout=15s"));
        long portOpen = awaitPortOpen();
        List<OutboundStatus> first = xray().getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusList();
        long firstAnswerMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - portOpen);

        System.out.printf("warm restart: 3 outbounds served %d ms after the gRPC port opened%n", firstAnswerMillis);
        Map<String, OutboundStatus> byTag =
                first.stream().collect(Collectors.toMap(OutboundStatus::getOutboundTag, Function.identity()));
        assertThat(byTag).containsOnlyKeys("lab-a", "lab-b", "lab-refused");
        assertThat(byTag.get("lab-a").getAlive()).isTrue();
        assertThat(byTag.get("lab-b").getAlive()).isTrue();
        assertThat(byTag.get("lab-refused").getAlive()).isFalse();
        assertThat(byTag.get("lab-refused").getLastErrorReason()).contains("connection refused");
        assertThat(byTag.get("lab-a").getLastTryTime())
                .isEqualTo(written.getStatusesList().stream()
                        .filter(s -> s.getTag().equals("lab-a"))
                        .findFirst()
                        .orElseThrow()
                        .getLastTry()
                        .getSeconds());
        assertThat(service.awaitMessage(RESTORED, STARTUP))
                .startsWith("restored 3 statuses, 0 passive states and 0 witness reports");

        assertThat(v1().getObservation(GetObservationRequest.getDefaultInstance())
                        .getOutboundsList())
                .filteredOn(outbound -> !outbound.getTag().equals("lab-refused"))
                .as("the outbounds whose new probes hang")
                .hasSize(2)
                .allSatisfy(outbound -> {
                    assertThat(outbound.getLastChangeReason())
                            .startsWith("active unknown -> healthy: restored" + " from the state file (measured ");
                    assertThat(Timestamps.instant(outbound.getRestoredMeasuredTime()))
                            .isEqualTo(Timestamps.instant(written.getStatusesList().stream()
                                    .filter(saved -> saved.getTag().equals(outbound.getTag()))
                                    .findFirst()
                                    .orElseThrow()
                                    .getMeasuredTime()));
                });
        await().atMost(Duration.ofSeconds(35))
                .untilAsserted(() -> assertThat(v1().getObservation(GetObservationRequest.getDefaultInstance())
                                .getOutboundsList())
                        .as("replaced by this process's probes, which time out")
                        .allSatisfy(outbound -> {
                            assertThat(outbound.hasRestoredMeasuredTime()).isFalse();
                            assertThat(outbound.getAlive()).isFalse();
                        }));
    }

    @Test
    void sigtermThenTheLastStatusesAreWrittenAfterTheObserverStoppedAndTheNextStartServesThem() throws Exception {
        service = start(List.of(), List.of("--observatory.state.write-interval=1h"));
        service.awaitMessage(COLD, STARTUP);
        awaitPortOpen();
        await().atMost(STARTUP)
                .until(() -> xray().getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                                .getStatus()
                                .getStatusCount()
                        == 3);
        SavedState periodic = SavedState.parseFrom(
                ((StateFile.Loaded) StateFile.read(directory.resolve(StateSettings.FILE_NAME))).payload());

        service.sigterm();

        assertThat(service.awaitExit(Duration.ofSeconds(30))).isEqualTo(143);
        assertThat(periodic.getStatusesCount())
                .as("written at start, before any probe; the next write is due in 1h")
                .isZero();
        SavedState last = SavedState.parseFrom(
                ((StateFile.Loaded) StateFile.read(directory.resolve(StateSettings.FILE_NAME))).payload());
        assertThat(last.getStatusesList())
                .extracting(SavedStatus::getTag)
                .containsExactlyInAnyOrder("lab-a", "lab-b", "lab-refused");
        service.close();
        service = start();
        assertThat(service.awaitMessage(RESTORED, STARTUP)).startsWith("restored 3 statuses, ");
    }

    @Test
    void startWhenTheStateFileIsCorruptThenOneLineAndAColdStartThatWritesANewFile() throws Exception {
        Path file = directory.resolve(StateSettings.FILE_NAME);
        StateFile.write(file, "not a saved state".getBytes(StandardCharsets.UTF_8));
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 3));

        service = start();

        assertThat(service.awaitMessage(COLD, STARTUP)).startsWith("ignoring state file " + file + " (truncated: ");
        awaitStateWithStatuses(3);
    }

    @Test
    void startWhenTheFileIsFromAnotherConfigurationThenNothingOfItIsServedAndTheLineSaysWhy() throws Exception {
        ObservatoryConfig other = Configs.of(
                "outbounds[0].tag=lab-a",
                "outbounds[0].protocol=direct",
                "outbounds[1].tag=lab-b",
                "outbounds[1].protocol=socks",
                "outbounds[1].address=127.0.0.1",
                "outbounds[1].port=1080",
                "outbounds[2].tag=lab-gone",
                "outbounds[2].protocol=direct",
                "standard.subject-selector[0]=lab-",
                "standard.probe-url=http://127.0.0.1:1/generate_204");
        Instant now = Instant.now();
        Map<String, OutboundHealth> outbounds = new LinkedHashMap<>();
        for (String tag : List.of("lab-a", "lab-b", "lab-gone")) {
            outbounds.put(
                    tag,
                    new OutboundHealth(
                            tag,
                            SyntheticStatuses.status(tag, true),
                            PassiveView.NONE,
                            List.of(),
                            HealthState.HEALTHY,
                            now,
                            "outbound added"));
        }
        StateFile.write(
                directory.resolve(StateSettings.FILE_NAME),
                StateCodec.encode(new StateSnapshot(
                                now,
                                0,
                                other,
                                new Observation(outbounds, other.availability().policy(), OptionalLong.empty()),
                                Map.of(),
                                new ObservationUpdater.PassiveEntries("consecutive-failures", List.of()),
                                Map.of()))
                        .toByteArray());

        service = start();

        assertThat(service.awaitMessage(RESTORED, STARTUP))
                .startsWith("restored 0 statuses, 0 passive states and 0" + " witness reports written ")
                .endsWith(" ago; dropped 3 (0 older than 1m0s, 2 measuring something else"
                        + " now, 1 no longer configured)");
    }

    @Test
    void startWhenTheStateFileIsLargerThanTheHeapCanRestoreThenOneLineAndAColdStart() throws Exception {
        Path file = directory.resolve(StateSettings.FILE_NAME);
        long length = 200L << 20;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(24)
                    .put("OBSSTATE".getBytes(StandardCharsets.US_ASCII))
                    .putInt(1)
                    .putLong(length)
                    .putInt(0)
                    .flip());
            channel.write(ByteBuffer.wrap(new byte[] {0}), 24 + length - 1);
        }

        service = start(List.of("-Xmx128m"));

        assertThat(service.awaitMessage(COLD, STARTUP))
                .startsWith("ignoring state file " + file + " (a payload of " + length + " bytes, more than the ");
        awaitStateWithStatuses(3);
    }

    @Test
    void startWhenTheDirectorysPathHasAQuoteThenWarmRestartIsOn() throws Exception {
        directory = Files.createDirectory(directory.resolve("observatory's state"));

        service = start();

        assertThat(service.awaitMessage(COLD, STARTUP))
                .isEqualTo("no state file " + directory.resolve(StateSettings.FILE_NAME) + " yet; starting cold");
        awaitStateWithStatuses(3);
    }

    private ServiceProcess start() throws Exception {
        return start(List.of());
    }

    private ServiceProcess start(List<String> jvmOptions) throws Exception {
        return start(jvmOptions, List.of());
    }

    /** @param more settings that replace the test's own of the same name, or add to them */
    private ServiceProcess start(List<String> jvmOptions, List<String> more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "--spring.grpc.server.port=" + grpcPort,
                "--server.port=0",
                "--observatory.state.directory=" + directory,
                "--observatory.state.write-interval=1s",
                "--observatory.outbounds[0].tag=lab-a",
                "--observatory.outbounds[0].protocol=direct",
                "--observatory.outbounds[1].tag=lab-b",
                "--observatory.outbounds[1].protocol=direct",
                "--observatory.outbounds[2].tag=lab-refused",
                "--observatory.outbounds[2].protocol=direct",
                "--observatory.outbounds[2].probe-url=http://127.0.0.1:" + closedPort + "/generate_204",
                "--observatory.standard.subject-selector[0]=lab-",
                "--observatory.standard.probe-url=http://127.0.0.1:" + targetPort + "/generate_204",
                "--observatory.standard.enable-concurrency=true",
                "--observatory.standard.probe-interval=10s"));
        for (String setting : more) {
            String key = setting.substring(0, setting.indexOf('=') + 1);
            args.removeIf(arg -> arg.startsWith(key));
            args.add(setting);
        }
        return ServiceProcess.start(jvmOptions, args);
    }

    private SavedState awaitStateWithStatuses(int count) {
        Path file = directory.resolve(StateSettings.FILE_NAME);
        return await().atMost(STARTUP)
                .until(
                        () -> StateFile.read(file) instanceof StateFile.Loaded loaded
                                ? SavedState.parseFrom(loaded.payload())
                                : SavedState.getDefaultInstance(),
                        state -> state.getStatusesCount() == count);
    }

    /** Waits for the gRPC port to accept a connection and returns when it first did ({@link System#nanoTime()}). */
    private long awaitPortOpen() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        channel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", grpcPort))
                .usePlaintext()
                .build();
        return PortOpening.await(grpcPort, STARTUP);
    }

    private ObservatoryServiceGrpc.ObservatoryServiceBlockingStub xray() {
        return ObservatoryServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
    }

    private io.observatory.api.v1.ObservatoryServiceGrpc.ObservatoryServiceBlockingStub v1() {
        return io.observatory.api.v1.ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS);
    }
}
