package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.observatory.api.v1.CallOutcome;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.HealthState;
import io.observatory.api.v1.ListAvailableRequest;
import io.observatory.api.v1.ListAvailableResponse;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.OutboundChanged;
import io.observatory.api.v1.OutboundObservation;
import io.observatory.api.v1.Outcome;
import io.observatory.api.v1.PickRequest;
import io.observatory.api.v1.PickResponse;
import io.observatory.api.v1.ProbeErrorKind;
import io.observatory.api.v1.RejectedOutcome;
import io.observatory.api.v1.ReportOutcomesRequest;
import io.observatory.api.v1.ReportOutcomesResponse;
import io.observatory.api.v1.TransportFailure;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.RecordingObserver;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service on a real gRPC port, read and fed through a v1 client generated from {@code proto/}: the standard
 * observer probes {@code edge_alive} (a local target), {@code edge_dead} (a closed port) and {@code victim} (the
 * local target; the passive-health tests report its calls, so no other test selects it); {@code edge_unprobed} is
 * configured but no observer selects it. Passive health runs with the defaults (transport-failure-rate, 60 s window,
 * 10 calls, limit 0.3).
 */
class ObservatoryV1ServiceIntegrationTest extends RunningServiceTest {

    private static final TestTarget TARGET = TestTarget.http();
    private static final int DEAD_PORT = ClosedPort.find();
    private static final Duration PATIENCE = Duration.ofSeconds(15);

    private static final String TOKEN = "v1-integration-test-token";

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) throws IOException {
        Path tokenFile = Files.createTempFile("observatory-api-token", ".txt");
        tokenFile.toFile().deleteOnExit();
        Files.writeString(tokenFile, TOKEN + "\n");
        registry.add("observatory.api.auth.token-file", tokenFile::toString);
        registry.add("observatory.standard.subject-selector[0]", () -> "edge_alive");
        registry.add("observatory.standard.subject-selector[1]", () -> "edge_dead");
        registry.add("observatory.standard.subject-selector[2]", () -> "victim");
        registry.add("observatory.standard.probe-url", () -> TARGET.url("/generate_204"));
        registry.add("observatory.standard.probe-interval", () -> "200ms");
        registry.add("observatory.standard.enable-concurrency", () -> "true");
        registerDirectOutbound(registry, 0, "edge_alive", () -> TARGET.url("/generate_204"));
        registerDirectOutbound(registry, 1, "edge_dead", () -> "http://127.0.0.1:" + DEAD_PORT + "/generate_204");
        registerDirectOutbound(registry, 2, "edge_unprobed", null);
        registerDirectOutbound(registry, 3, "victim", () -> TARGET.url("/generate_204"));
    }

    @AfterAll
    static void stopTarget() {
        TARGET.close();
    }

    /** A stub presenting the API token, as a balancer that reports outcomes does. */
    private ObservatoryServiceGrpc.ObservatoryServiceBlockingStub stub() {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + TOKEN);
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    private Map<String, OutboundObservation> observations(String... prefixes) {
        return stub()
                .getObservation(GetObservationRequest.newBuilder()
                        .addAllTagPrefixes(List.of(prefixes))
                        .build())
                .getOutboundsList()
                .stream()
                .collect(Collectors.toMap(OutboundObservation::getTag, Function.identity()));
    }

    private OutboundObservation observation(String tag) {
        return observations(tag).get(tag);
    }

    private static PickRequest pick(String... selector) {
        return PickRequest.newBuilder()
                .addAllSelector(List.of(selector))
                .setStrategy("random")
                .build();
    }

    @BeforeEach
    void awaitFirstProbes() {
        await().atMost(PATIENCE).until(() -> {
            Map<String, OutboundObservation> observed = observations();
            return observed.get("edge_alive").getVerdict() == HealthState.HEALTH_STATE_HEALTHY
                    && observed.get("edge_dead").getVerdict() == HealthState.HEALTH_STATE_UNHEALTHY
                    && observed.get("victim").getProbed();
        });
    }

    @Test
    void getObservationWhenProbedThenClientSeesStatesAndProbeEvidence() {
        Map<String, OutboundObservation> observed = observations("edge_");

        assertThat(stub().getObservation(GetObservationRequest.newBuilder()
                                .addTagPrefixes("edge_")
                                .build())
                        .getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("edge_alive", "edge_dead", "edge_unprobed");

        OutboundObservation alive = observed.get("edge_alive");
        assertThat(alive.getActiveState()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
        assertThat(alive.getAlive()).isTrue();
        assertThat(alive.getProbed()).isTrue();
        assertThat(alive.getDelayMillis()).isBetween(0L, 5_000L);
        assertThat(alive.getActiveDetail()).startsWith("probe succeeded: HTTP 204");
        assertThat(alive.getLastProbe().getSuccess()).isTrue();
        assertThat(alive.getLastProbe().getHttpStatus()).isEqualTo(204);
        assertThat(alive.getLastProbe().getErrorKind()).isEqualTo(ProbeErrorKind.PROBE_ERROR_KIND_UNSPECIFIED);
        assertThat(alive.getLastProbe().getErrorReason()).isEmpty();
        assertThat(alive.getLastProbe().getRttNanos()).isPositive();

        OutboundObservation dead = observed.get("edge_dead");
        assertThat(dead.getActiveState()).isEqualTo(HealthState.HEALTH_STATE_UNHEALTHY);
        assertThat(dead.getAlive()).isFalse();
        assertThat(dead.getDelayMillis()).isEqualTo(99_999_999L);
        assertThat(dead.getLastProbe().getSuccess()).isFalse();
        assertThat(dead.getLastProbe().getHttpStatus()).isZero();
        assertThat(dead.getLastProbe().getErrorKind()).isEqualTo(ProbeErrorKind.PROBE_ERROR_KIND_CONNECTION_REFUSED);
        assertThat(dead.getLastProbe().getErrorReason()).contains("edge_dead").contains("connection refused");

        OutboundObservation unprobed = observed.get("edge_unprobed");
        assertThat(unprobed.getVerdict()).isEqualTo(HealthState.HEALTH_STATE_UNKNOWN);
        assertThat(unprobed.getProbed()).isFalse();
        assertThat(unprobed.getAlive()).isFalse();
        assertThat(unprobed.hasLastProbe()).isFalse();
    }

    @Test
    void listAvailableWhenOneSelectedIsDeadThenItIsLeftOut() {
        ListAvailableResponse response = stub().listAvailable(
                        ListAvailableRequest.newBuilder().addSelector("edge_").build());

        assertThat(response.getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("edge_alive", "edge_unprobed");
        assertThat(response.getPanic()).isFalse();
    }

    @Test
    void pickRandomWhenDeadAndUnprobedSelectedThenAlwaysTheProbedAliveOne() {
        Set<String> picked = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            PickResponse response = stub().pick(pick("edge_"));
            picked.add(response.getTag());
            assertThat(response.getPanic()).isFalse();
            assertThat(response.getFallback()).isFalse();
        }

        assertThat(picked).containsExactly("edge_alive");
    }

    @Test
    void pickWhenOnlyUnprobedSelectedThenNotFoundOrFallback() {
        StatusRuntimeException error =
                catchThrowableOfType(StatusRuntimeException.class, () -> stub().pick(pick("edge_unprobed")));

        assertThat(error.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
        assertThat(error.getStatus().getDescription())
                .isEqualTo(
                        "nothing to pick for selector [\"edge_unprobed\"]: 1 selected, 1 available, 0 of them probed");

        PickResponse fallback = stub().pick(pick("edge_unprobed").toBuilder()
                .setFallbackTag("direct")
                .build());
        assertThat(fallback.getTag()).isEqualTo("direct");
        assertThat(fallback.getFallback()).isTrue();
    }

    @Test
    void pickWhenOnlyDeadSelectedThenPanicPicksIt() {
        PickResponse response = stub().pick(pick("edge_dead"));

        assertThat(response.getTag()).isEqualTo("edge_dead");
        assertThat(response.getPanic()).isTrue();
    }

    @Test
    void pickWhenStrategyUnknownThenClientSeesInvalidArgumentDescription() {
        StatusRuntimeException error = catchThrowableOfType(
                StatusRuntimeException.class,
                () -> stub().pick(
                                pick("edge_").toBuilder().setStrategy("fastest").build()));

        assertThat(error.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(error.getStatus().getDescription())
                .isEqualTo("strategy: \"fastest\" (expected: random, round-robin, least-ping, least-load)");
    }

    @Test
    void reportOutcomesWhenOneTagUnknownThenOnlyItIsRejectedAndTheOthersCount() {
        long before = observation("victim").getPassive().getTotalCalls();

        ReportOutcomesResponse response = stub().reportOutcomes(ReportOutcomesRequest.newBuilder()
                .addOutcomes(CallOutcome.newBuilder()
                        .setTag("victim")
                        .setOutcome(Outcome.OUTCOME_SUCCESS)
                        .setLatencyNanos(3_000_000))
                .addOutcomes(CallOutcome.newBuilder().setTag("nope").setOutcome(Outcome.OUTCOME_SUCCESS))
                .addOutcomes(CallOutcome.newBuilder()
                        .setTag("victim")
                        .setOutcome(Outcome.OUTCOME_APPLICATION_FAILURE)
                        .setApplicationStatus(503)
                        .setLatencyNanos(1_000_000))
                .build());

        assertThat(response.getAccepted()).isEqualTo(2);
        assertThat(response.getRejectedList())
                .containsExactly(RejectedOutcome.newBuilder()
                        .setIndex(1)
                        .setReason("unknown outbound tag \"nope\"")
                        .build());
        await().atMost(PATIENCE).until(() -> observation("victim").getPassive().getTotalCalls() == before + 2);
    }

    @Test
    void reportOutcomesWhenTenTransportFailuresThenPassiveUnhealthyAndNoLongerAvailable() {
        assertThat(observation("victim").getAlive()).isTrue();
        RecordingObserver<WatchObservationResponse> watch = new RecordingObserver<>();
        ObservatoryServiceGrpc.newStub(channel)
                .watchObservation(
                        WatchObservationRequest.newBuilder()
                                .addTagPrefixes("victim")
                                .build(),
                        watch);
        List<WatchObservationResponse> watched = watch.values();
        await().atMost(PATIENCE).until(() -> !watched.isEmpty());
        ReportOutcomesRequest.Builder request = ReportOutcomesRequest.newBuilder();
        for (int i = 0; i < 10; i++) {
            request.addOutcomes(CallOutcome.newBuilder()
                    .setTag("victim")
                    .setOutcome(Outcome.OUTCOME_TRANSPORT_FAILURE)
                    .setTransportFailure(TransportFailure.TRANSPORT_FAILURE_CONNECT)
                    .setLatencyNanos(2_000_000));
        }

        ReportOutcomesResponse response = stub().reportOutcomes(request.build());

        assertThat(response.getAccepted()).isEqualTo(10);
        assertThat(response.getRejectedList()).isEmpty();
        await().atMost(PATIENCE)
                .until(() -> observation("victim").getPassiveState() == HealthState.HEALTH_STATE_UNHEALTHY);
        OutboundObservation victim = observation("victim");
        assertThat(victim.getVerdict()).isEqualTo(HealthState.HEALTH_STATE_UNHEALTHY);
        assertThat(victim.getActiveState()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
        assertThat(victim.getAlive()).isFalse();
        assertThat(victim.getPassive().getWindowFailures()).isGreaterThanOrEqualTo(10);
        assertThat(stub().listAvailable(ListAvailableRequest.newBuilder()
                                .addSelector("victim")
                                .addSelector("edge_alive")
                                .build())
                        .getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("edge_alive");
        await().atMost(PATIENCE)
                .until(() -> watched.stream()
                        .anyMatch(event -> event.hasChanged()
                                && event.getChanged().getOutbound().getVerdict()
                                        == HealthState.HEALTH_STATE_UNHEALTHY));
        OutboundChanged change = watched.stream()
                .filter(WatchObservationResponse::hasChanged)
                .map(WatchObservationResponse::getChanged)
                .reduce((first, second) -> second)
                .orElseThrow();
        assertThat(change.getPreviousVerdict()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
        assertThat(change.getReason())
                .startsWith("passive unknown -> unhealthy: ")
                .contains("calls in the 1m0s window failed in transport");
        assertThat(xrayAlive("victim")).isFalse();
    }

    private boolean xrayAlive(String tag) {
        return io.observatory.api.xray.ObservatoryServiceGrpc.newBlockingStub(channel)
                .getOutboundStatus(io.observatory.api.xray.GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusList()
                .stream()
                .filter(status -> status.getOutboundTag().equals(tag))
                .findFirst()
                .orElseThrow()
                .getAlive();
    }
}
