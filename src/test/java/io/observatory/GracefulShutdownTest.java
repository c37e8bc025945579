package io.observatory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.JsonPath;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Graceful shutdown on the real service in its own JVM: on SIGTERM grpc.health.v1 turns NOT_SERVING, readiness goes
 * down, an in-flight RPC keeps being served until the gRPC grace period ends, the in-flight probe is cancelled, and the
 * process exits. The observed outbounds are probed in sequence: {@code lab-fast} answers at once (so the service
 * becomes ready), {@code lab-hang} never answers, so at SIGTERM a probe is in flight for seconds before its 5 s
 * deadline.
 */
class GracefulShutdownTest {

    private static final Logger log = LoggerFactory.getLogger(GracefulShutdownTest.class);

    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Pattern GRPC_STARTED = Pattern.compile("gRPC Server started, listening on .*, port: (\\d+)");
    private static final Pattern HTTP_STARTED = Pattern.compile("Netty started on port (\\d+) \\(http\\)");

    private final TestTarget fastTarget = TestTarget.http();
    private final TestTarget hangTarget = TestTarget.http();
    private final HttpClient http = HttpClient.newHttpClient();
    private ServiceProcess service;
    private ManagedChannel channel;

    @AfterEach
    void cleanUp() throws InterruptedException, IOException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (service != null) {
            service.close();
        }
        fastTarget.close();
        hangTarget.close();
    }

    @Test
    void sigtermThenNotServingReadinessDownProbeCancelledRpcDrainedWithinGraceAndExit() throws Exception {
        service = ServiceProcess.start(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--spring.grpc.server.shutdown.grace-period=" + GRACE.toSeconds() + "s",
                "--observatory.outbounds[0].tag=lab-fast",
                "--observatory.outbounds[0].protocol=direct",
                "--observatory.outbounds[0].probe-url=" + fastTarget.url("/generate_204"),
                "--observatory.outbounds[1].tag=lab-hang",
                "--observatory.outbounds[1].protocol=direct",
                "--observatory.outbounds[1].probe-url=" + hangTarget.url("/hang"),
                "--observatory.standard.subject-selector[0]=lab-",
                "--observatory.standard.probe-interval=100ms"));
        int grpcPort = Integer.parseInt(service.awaitMessage(GRPC_STARTED, STARTUP));
        int httpPort = Integer.parseInt(service.awaitMessage(HTTP_STARTED, STARTUP));

        channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort)
                .usePlaintext()
                .build();
        HealthWatch watch = new HealthWatch(hangTarget);
        HealthGrpc.newStub(channel)
                .watch(HealthCheckRequest.newBuilder().setService("").build(), watch);
        await().atMost(Duration.ofSeconds(10)).until(() -> watch.statuses.contains(ServingStatus.SERVING));
        await().atMost(Duration.ofSeconds(10)).until(() -> readiness(httpPort).equals("200 UP"));

        // SIGTERM just after a hang probe starts: its 5 s deadline is well beyond the 2 s grace period.
        int hangProbes = hangTarget.requestCount("/hang");
        await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> hangTarget.requestCount("/hang") > hangProbes);
        int closedBefore = hangTarget.closedConnectionCount();
        long sigtermAt = System.nanoTime();
        service.sigterm();

        await().atMost(GRACE)
                .pollInterval(Duration.ofMillis(10))
                .until(() -> watch.statuses.contains(ServingStatus.NOT_SERVING));
        long notServingAfter = System.nanoTime() - sigtermAt;
        // The management port stays up while the gRPC server drains (its lifecycle phase stops later).
        String readinessWhileDraining = await().atMost(GRACE)
                .pollInterval(Duration.ofMillis(10))
                .until(() -> readiness(httpPort), readiness -> !readiness.startsWith("200"));
        await().atMost(GRACE)
                .pollInterval(Duration.ofMillis(10))
                .until(() -> hangTarget.closedConnectionCount() > closedBefore);
        long probeCancelledAfter = System.nanoTime() - sigtermAt;
        Status streamEnd = watch.end.get(GRACE.plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
        long streamEndedAfter = watch.endedAtNanos - sigtermAt;
        int exitCode = service.awaitExit(Duration.ofSeconds(10));
        long exitedAfter = System.nanoTime() - sigtermAt;
        log.info(
                "after SIGTERM: NOT_SERVING seen {} ms, probe connection closed {} ms, health watch ended {} ms"
                        + " ({}), process exited {} ms with {}",
                millis(notServingAfter),
                millis(probeCancelledAfter),
                millis(streamEndedAfter),
                streamEnd.getCode(),
                millis(exitedAfter),
                exitCode);

        assertThat(readinessWhileDraining).isEqualTo("503 OUT_OF_SERVICE");
        assertThat(watch.statuses)
                .as("the watch stream sees the terminal state before it ends")
                .endsWith(ServingStatus.SERVING, ServingStatus.NOT_SERVING);
        assertThat(watch.hangConnectionsClosedAtEnd)
                .as("the in-flight probe was cancelled before the RPCs drained")
                .isGreaterThan(closedBefore);
        assertThat(Duration.ofNanos(streamEndedAfter))
                .as("the open watch stream was served until the grace period")
                .isBetween(GRACE.minusMillis(500), GRACE.plusSeconds(3));
        assertThat(exitCode).isIn(0, 143);
        assertThat(Duration.ofNanos(exitedAfter)).isLessThan(Duration.ofSeconds(10));
        assertThat(service.nonJsonLines())
                .as("console lines that are not one JSON (ECS) object each")
                .isEmpty();
    }

    /** Returns e.g. {@code "200 UP"}: the readiness group's HTTP status and health status. */
    private String readiness(int httpPort) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/actuator/health/readiness"))
                        .timeout(Duration.ofSeconds(2))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + JsonPath.read(response.body(), "$.status");
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** Records what a grpc.health.v1 Watch stream delivers, and how the stream ends. */
    private static final class HealthWatch implements StreamObserver<HealthCheckResponse> {

        final List<ServingStatus> statuses = new CopyOnWriteArrayList<>();
        final CompletableFuture<Status> end = new CompletableFuture<>();
        private final TestTarget hangTarget;
        // volatile: written on the gRPC callback thread before end completes, read by the test thread after.
        volatile long endedAtNanos;
        volatile int hangConnectionsClosedAtEnd;

        HealthWatch(TestTarget hangTarget) {
            this.hangTarget = hangTarget;
        }

        @Override
        public void onNext(HealthCheckResponse response) {
            statuses.add(response.getStatus());
        }

        @Override
        public void onError(Throwable error) {
            ended(Status.fromThrowable(error));
        }

        @Override
        public void onCompleted() {
            ended(Status.OK);
        }

        private void ended(Status status) {
            endedAtNanos = System.nanoTime();
            hangConnectionsClosedAtEnd = hangTarget.closedConnectionCount();
            end.complete(status);
        }
    }
}
