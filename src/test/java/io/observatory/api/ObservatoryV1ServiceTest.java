package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.Timestamp;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.CallOutcome;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.GetObservationResponse;
import io.observatory.api.v1.HealthState;
import io.observatory.api.v1.ListAvailableRequest;
import io.observatory.api.v1.ListAvailableResponse;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.OutboundObservation;
import io.observatory.api.v1.Outcome;
import io.observatory.api.v1.PickRequest;
import io.observatory.api.v1.PickResponse;
import io.observatory.api.v1.RejectedOutcome;
import io.observatory.api.v1.ReportOutcomesRequest;
import io.observatory.api.v1.ReportOutcomesResponse;
import io.observatory.api.v1.TransportFailure;
import io.observatory.config.ObservatoryConfig;
import io.observatory.health.ActiveHealth;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import io.observatory.testing.RecordingObserver;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The v1 handlers on a real {@link ObservationUpdater} driven by fake time: outbounds {@code a_up} and {@code b_up}
 * (probed, alive), {@code a_down} (probed, dead) and {@code a_new} (never probed). The clock stands at
 * {@code 2026-11-29T12:00:00Z}.
 */
class ObservatoryV1ServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final FakeScheduler scheduler = new FakeScheduler();
    private final Clock clock = scheduler.clock();
    private final ScriptedRandom random = new ScriptedRandom();
    private ObservationUpdater updater;
    private ObservatoryV1Service service;
    // GetObservation answers with serialized bytes, so it is called through the bound service.
    private Server server;
    private ManagedChannel channel;

    @BeforeEach
    void startUpdater() throws IOException {
        ObservatoryConfig config = Configs.direct(List.of("a_up", "a_down", "a_new", "b_up"));
        updater = new ObservationUpdater(config, scheduler, clock);
        scheduler.execute(
                () -> ObserverOutput.publish(updater, List.of(alive("a_up", 12), dead("a_down"), alive("b_up", 30))));
        scheduler.runDue();
        service = new ObservatoryV1Service(
                updater.store(), updater, clock, random, new ObservationWatchers(updater.store()));
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .directExecutor()
                .addService(service.bindService())
                .build();
        server.start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    }

    @AfterEach
    void stopServer() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    private static OutboundStatus alive(String tag, long delayMillis) {
        return new OutboundStatus(
                tag,
                true,
                delayMillis,
                "",
                NOW,
                NOW,
                null,
                null,
                new ActiveHealth(io.observatory.health.HealthState.HEALTHY, 1, 0),
                "probe succeeded: HTTP 204 in " + delayMillis + " ms");
    }

    private static OutboundStatus dead(String tag) {
        return new OutboundStatus(
                tag,
                false,
                OutboundStatus.DEAD_DELAY_MILLIS,
                "outbound " + tag + ": refused",
                null,
                NOW,
                null,
                null,
                new ActiveHealth(io.observatory.health.HealthState.UNHEALTHY, 0, 1),
                "probe failed: outbound " + tag + ": refused");
    }

    // GetObservation

    @Test
    void getObservationWhenNoPrefixThenEveryOutboundSortedByTag() {
        GetObservationResponse response = getObservation(GetObservationRequest.getDefaultInstance());

        assertThat(response.getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("a_down", "a_new", "a_up", "b_up");
    }

    @Test
    void getObservationWhenPublishedAgainThenAnswersFromTheNewSnapshot() {
        GetObservationResponse before = getObservation(GetObservationRequest.getDefaultInstance());
        scheduler.execute(
                () -> ObserverOutput.publish(updater, List.of(dead("a_up"), dead("a_down"), alive("b_up", 30))));
        scheduler.runDue();

        GetObservationResponse after = getObservation(GetObservationRequest.getDefaultInstance());

        assertThat(before.getOutbounds(2).getVerdict()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
        assertThat(after.getOutbounds(2).getTag()).isEqualTo("a_up");
        assertThat(after.getOutbounds(2).getVerdict()).isEqualTo(HealthState.HEALTH_STATE_UNHEALTHY);
        assertThat(getObservation(GetObservationRequest.getDefaultInstance())).isEqualTo(after);
    }

    @Test
    void getObservationWhenPrefixesOverlapThenEachOutboundOnceInTagOrder() {
        GetObservationResponse response = getObservation(GetObservationRequest.newBuilder()
                .addTagPrefixes("b")
                .addTagPrefixes("a_")
                .addTagPrefixes("a_u")
                .addTagPrefixes("zz")
                .build());

        assertThat(response.getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("a_down", "a_new", "a_up", "b_up");
    }

    @Test
    void getObservationWhenPrefixesGivenThenOnlyMatchingOutboundsMappedFromBoard() {
        GetObservationResponse response = getObservation(GetObservationRequest.newBuilder()
                .addTagPrefixes("a_u")
                .addTagPrefixes("a_n")
                .build());

        assertThat(response.getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("a_new", "a_up");
        OutboundObservation up = response.getOutbounds(1);
        assertThat(up)
                .isEqualTo(ObservationProtos.outbound(
                        updater.store().current().get("a_up").orElseThrow()));
        assertThat(up.getVerdict()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
        assertThat(up.getDelayMillis()).isEqualTo(12);
        assertThat(up.getProbed()).isTrue();
        OutboundObservation unprobed = response.getOutbounds(0);
        assertThat(unprobed.getVerdict()).isEqualTo(HealthState.HEALTH_STATE_UNKNOWN);
        assertThat(unprobed.getProbed()).isFalse();
    }

    @Test
    void getObservationWhenEmptyPrefixThenInvalidArgument() {
        Status status = Status.fromThrowable(catchThrowable(() -> getObservation(GetObservationRequest.newBuilder()
                .addTagPrefixes("a_")
                .addTagPrefixes("")
                .build())));

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo("tag_prefixes[1]: \"\" (expected: a non-empty tag prefix)");
    }

    // ListAvailable

    @Test
    void listAvailableWhenOneSelectedIsUnhealthyThenItIsLeftOutAndUnknownStays() {
        ListAvailableResponse response = ok(service::listAvailable, selector(ListAvailableRequest.newBuilder(), "a_"));

        assertThat(response.getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("a_new", "a_up");
        assertThat(response.getPanic()).isFalse();
    }

    @Test
    void listAvailableWhenEverySelectedIsUnhealthyThenPanicReturnsThemAll() {
        ListAvailableResponse response =
                ok(service::listAvailable, selector(ListAvailableRequest.newBuilder(), "a_down"));

        assertThat(response.getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("a_down");
        assertThat(response.getPanic()).isTrue();
    }

    static Stream<Arguments> invalidSelectors() {
        return Stream.of(
                Arguments.of(List.of(), "selector: empty (expected: 1-256 tag prefixes)"),
                Arguments.of(Collections.nCopies(257, "a_"), "selector: 257 tag prefixes (expected: 1-256)"),
                Arguments.of(List.of("a_", "b_", "c_", ""), "selector[3]: \"\" (expected: a non-empty tag prefix)"),
                Arguments.of(List.of("x".repeat(300)), "selector[0]: 300 bytes (expected: at most 256)"));
    }

    @ParameterizedTest
    @MethodSource("invalidSelectors")
    void listAvailableWhenSelectorInvalidThenInvalidArgument(List<String> selector, String description) {
        Status status = failure(
                service::listAvailable,
                ListAvailableRequest.newBuilder().addAllSelector(selector).build());

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo(description);
    }

    // Pick

    @ParameterizedTest
    @MethodSource("invalidSelectors")
    void pickWhenSelectorInvalidThenInvalidArgument(List<String> selector, String description) {
        Status status = failure(
                service::pick,
                PickRequest.newBuilder()
                        .addAllSelector(selector)
                        .setStrategy("random")
                        .build());

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo(description);
    }

    @Test
    void pickRandomWhenSeveralCandidatesThenDrawsIndexAmongProbedAvailableSortedByTag() {
        random.next(1, 0);
        PickRequest request = pick("random", "a_", "b_");

        PickResponse first = ok(service::pick, request);
        PickResponse second = ok(service::pick, request);

        // a_down is unhealthy and a_new never probed: the candidates are a_up and b_up.
        assertThat(random.bounds).containsExactly(2, 2);
        assertThat(first.getTag()).isEqualTo("b_up");
        assertThat(second.getTag()).isEqualTo("a_up");
        assertThat(first.getFallback()).isFalse();
        assertThat(first.getPanic()).isFalse();
    }

    @Test
    void pickWhenOnlyUnprobedAvailableAndNoFallbackThenNotFoundNamesSelector() {
        Status status = failure(service::pick, pick("random", "a_new", "zzz"));

        assertThat(status.getCode()).isEqualTo(Status.Code.NOT_FOUND);
        assertThat(status.getDescription())
                .isEqualTo(
                        "nothing to pick for selector [\"a_new\", \"zzz\"]: 1 selected, 1 available, 0 of them probed");
        assertThat(random.bounds).isEmpty();
    }

    @Test
    void pickWhenSelectorMatchesNothingThenNotFound() {
        Status status = failure(service::pick, pick("random", "zzz"));

        assertThat(status.getCode()).isEqualTo(Status.Code.NOT_FOUND);
        assertThat(status.getDescription())
                .isEqualTo("nothing to pick for selector [\"zzz\"]: 0 selected, 0 available, 0 of them probed");
    }

    @Test
    void pickWhenSelectorIsLongThenNotFoundNamesFirstEightPrefixes() {
        String[] selector = IntStream.range(0, 10).mapToObj(i -> "z" + i).toArray(String[]::new);

        Status status = failure(service::pick, pick("random", selector));

        assertThat(status.getDescription())
                .isEqualTo("nothing to pick for selector [\"z0\", \"z1\", \"z2\", \"z3\", "
                        + "\"z4\", \"z5\", \"z6\", \"z7\", ... 2 more]: 0 selected, 0 available, 0 of them probed");
    }

    @Test
    void pickWhenNothingToPickAndFallbackGivenThenFallback() {
        PickResponse response = ok(
                service::pick,
                pick("random", "a_new").toBuilder().setFallbackTag("direct").build());

        assertThat(response.getTag()).isEqualTo("direct");
        assertThat(response.getFallback()).isTrue();
        assertThat(response.getPanic()).isFalse();
    }

    @Test
    void pickWhenAvailabilityInPanicThenPicksAmongAllSelectedAndSaysPanic() {
        random.next(0);

        PickResponse response = ok(service::pick, pick("random", "a_down"));

        assertThat(response.getTag()).isEqualTo("a_down");
        assertThat(response.getPanic()).isTrue();
        assertThat(response.getFallback()).isFalse();
    }

    static Stream<Arguments> invalidStrategies() {
        String expected = " (expected: random, round-robin, least-ping, least-load)";
        return Stream.of(
                Arguments.of("fastest", "strategy: \"fastest\"" + expected),
                Arguments.of("leastPing", "strategy: \"leastPing\"" + expected),
                Arguments.of("Random", "strategy: \"Random\"" + expected));
    }

    @ParameterizedTest
    @MethodSource("invalidStrategies")
    void pickWhenStrategyUnknownThenInvalidArgument(String strategy, String description) {
        Status status = failure(service::pick, pick(strategy, "a_"));

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo(description);
    }

    @Test
    void pickWhenStrategyEmptyThenRandomAsInXray() {
        random.next(1);

        PickResponse response = ok(service::pick, pick("", "a_", "b_"));

        assertThat(response.getTag()).isEqualTo("b_up");
    }

    @Test
    void pickWhenFallbackTagHasControlCharactersThenInvalidArgument() {
        Status status = failure(
                service::pick,
                pick("random", "a_").toBuilder().setFallbackTag("x\n").build());

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription())
                .isEqualTo("fallback_tag: \"x\\n\" (expected: empty or an outbound tag of"
                        + " at most 256 bytes without control characters)");
    }

    @Test
    void pickWhenLeastPingThenSmallestDelayAmongUsable() {
        PickResponse response = ok(service::pick, pick("least-ping", "a_", "b_"));

        assertThat(response.getTag()).isEqualTo("a_up");
        assertThat(response.getFallback()).isFalse();
    }

    @Test
    void pickWhenRoundRobinThenUsableProbedOutboundsInTagOrderPerSelector() {
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            picked.add(ok(service::pick, pick("round-robin", "a_", "b_")).getTag());
        }
        String otherSelector = ok(service::pick, pick("round-robin", "b_")).getTag();

        assertThat(picked).containsExactly("a_up", "b_up", "a_up");
        assertThat(otherSelector).isEqualTo("b_up");
    }

    @Test
    void pickWhenLeastLoadMaxRttBelowEveryDelayThenFallback() {
        PickResponse response = ok(
                service::pick,
                pick("least-load", "a_", "b_").toBuilder()
                        .setLeastLoad(io.observatory.api.v1.LeastLoadSettings.newBuilder()
                                .setMaxRttNanos(5_000_000))
                        .setFallbackTag("direct")
                        .build());

        assertThat(response.getTag()).isEqualTo("direct");
        assertThat(response.getFallback()).isTrue();
    }

    @Test
    void pickWhenLeastLoadToleranceOutOfRangeThenInvalidArgument() {
        Status status = failure(
                service::pick,
                pick("least-load", "a_").toBuilder()
                        .setLeastLoad(io.observatory.api.v1.LeastLoadSettings.newBuilder()
                                .setTolerance(1.5))
                        .build());

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo("least_load.tolerance: 1.5 (expected: 0-1)");
    }

    // ReportOutcomes

    private static CallOutcome.Builder outcome(String tag, Outcome outcome) {
        return CallOutcome.newBuilder().setTag(tag).setOutcome(outcome).setLatencyNanos(1_000_000);
    }

    private static Timestamp at(Instant instant) {
        return ObservationProtos.timestamp(instant);
    }

    static Stream<Arguments> rejectedOutcomes() {
        String outcomes = "(expected: OUTCOME_SUCCESS, OUTCOME_TRANSPORT_FAILURE or OUTCOME_APPLICATION_FAILURE)";
        return Stream.of(
                Arguments.of(outcome("", Outcome.OUTCOME_SUCCESS), "tag: \"\" (expected: a configured outbound tag)"),
                Arguments.of(outcome("x", Outcome.OUTCOME_SUCCESS), "unknown outbound tag \"x\""),
                Arguments.of(outcome("a_", Outcome.OUTCOME_SUCCESS), "unknown outbound tag \"a_\""),
                Arguments.of(outcome("a_up", Outcome.OUTCOME_UNSPECIFIED), "outcome: OUTCOME_UNSPECIFIED " + outcomes),
                Arguments.of(outcome("a_up", Outcome.OUTCOME_SUCCESS).setOutcomeValue(7), "outcome: 7 " + outcomes),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_SUCCESS)
                                .setTransportFailure(TransportFailure.TRANSPORT_FAILURE_RESET),
                        "transport_failure: TRANSPORT_FAILURE_RESET (expected: TRANSPORT_FAILURE_UNSPECIFIED unless "
                                + "outcome is OUTCOME_TRANSPORT_FAILURE)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_APPLICATION_FAILURE)
                                .setTransportFailure(TransportFailure.TRANSPORT_FAILURE_CONNECT),
                        "transport_failure: TRANSPORT_FAILURE_CONNECT (expected: TRANSPORT_FAILURE_UNSPECIFIED unless "
                                + "outcome is OUTCOME_TRANSPORT_FAILURE)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_TRANSPORT_FAILURE).setTransportFailureValue(9),
                        "transport_failure: 9 (expected: TRANSPORT_FAILURE_UNSPECIFIED, TRANSPORT_FAILURE_CONNECT, "
                                + "TRANSPORT_FAILURE_TIMEOUT or TRANSPORT_FAILURE_RESET)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_SUCCESS).setLatencyNanos(-1),
                        "latency_nanos: -1 (expected: 0-86400000000000, 24 hours)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_SUCCESS).setLatencyNanos(86_400_000_000_001L),
                        "latency_nanos: 86400000000001 (expected: 0-86400000000000, 24 hours)"),
                Arguments.of(
                        outcome("a\u0000up", Outcome.OUTCOME_SUCCESS),
                        "tag: \"a\\u0000up\" (expected: a configured outbound tag, without control characters)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_SUCCESS)
                                .setTime(at(NOW.minus(Duration.ofMinutes(5)).minusNanos(1))),
                        "time: 2026-11-29T11:54:59.999999999Z (expected: at most 5 minutes before the server's "
                                + "clock, 2026-11-29T12:00:00Z)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_SUCCESS)
                                .setTime(at(NOW.plus(Duration.ofMinutes(1)).plusNanos(1))),
                        "time: 2026-11-29T12:01:00.000000001Z (expected: at most 1 minute after the server's "
                                + "clock, 2026-11-29T12:00:00Z)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_SUCCESS)
                                .setTime(Timestamp.newBuilder().setSeconds(Long.MAX_VALUE)),
                        "time: seconds 9223372036854775807 (expected: 0001-01-01T00:00:00Z to "
                                + "9999-12-31T23:59:59Z)"),
                Arguments.of(
                        outcome("a_up", Outcome.OUTCOME_SUCCESS)
                                .setTime(Timestamp.newBuilder()
                                        .setSeconds(NOW.getEpochSecond())
                                        .setNanos(-1)),
                        "time: nanos -1 (expected: 0-999999999)"));
    }

    @Test
    void reportOutcomesWhenTenThousandHostileTagsThenAnswerFitsAClientsDefaultFourMebibytes() {
        ReportOutcomesRequest.Builder request =
                ReportOutcomesRequest.newBuilder().addOutcomes(outcome("a_up", Outcome.OUTCOME_SUCCESS));
        for (int i = 1; i < 10_000; i++) {
            request.addOutcomes(outcome("\u0000".repeat(300), Outcome.OUTCOME_SUCCESS));
        }

        ReportOutcomesResponse response = ok(service::reportOutcomes, request.build());

        assertThat(response.getAccepted()).isEqualTo(1);
        assertThat(response.getRejectedCount()).isEqualTo(9_999);
        assertThat(response.getSerializedSize()).isLessThan(4 * 1024 * 1024);
        assertThat(response.getRejected(0).getReason()).hasSizeLessThan(200);
    }

    @ParameterizedTest
    @MethodSource("rejectedOutcomes")
    void reportOutcomesWhenItemInvalidThenOnlyItIsRejectedWithIndexAndReason(CallOutcome.Builder bad, String reason) {
        ReportOutcomesRequest request = ReportOutcomesRequest.newBuilder()
                .addOutcomes(outcome("a_up", Outcome.OUTCOME_SUCCESS))
                .addOutcomes(bad)
                .addOutcomes(
                        outcome("b_up", Outcome.OUTCOME_APPLICATION_FAILURE).setApplicationStatus(503))
                .build();

        ReportOutcomesResponse response = ok(service::reportOutcomes, request);
        scheduler.runDue();

        assertThat(response.getAccepted()).isEqualTo(2);
        assertThat(response.getRejectedList())
                .containsExactly(RejectedOutcome.newBuilder()
                        .setIndex(1)
                        .setReason(reason)
                        .build());
        assertThat(calls("a_up")).isEqualTo(1);
        assertThat(calls("b_up")).isEqualTo(1);
    }

    static Stream<Arguments> acceptedTimes() {
        return Stream.of(
                Arguments.of(NOW.minus(Duration.ofMinutes(5)), NOW.minus(Duration.ofMinutes(5))),
                Arguments.of(NOW.minusSeconds(2), NOW.minusSeconds(2)),
                // Ahead of the server's clock (within the allowed minute): taken as now.
                Arguments.of(NOW.plus(Duration.ofMinutes(1)), NOW),
                Arguments.of(NOW.plusNanos(1), NOW));
    }

    @ParameterizedTest
    @MethodSource("acceptedTimes")
    void reportOutcomesWhenTimeWithinWindowThenAcceptedAtThatTimeOrNow(Instant sent, Instant applied) {
        ReportOutcomesResponse response = ok(
                service::reportOutcomes,
                ReportOutcomesRequest.newBuilder()
                        .addOutcomes(outcome("a_up", Outcome.OUTCOME_SUCCESS).setTime(at(sent)))
                        .build());
        scheduler.runDue();

        assertThat(response.getAccepted()).isEqualTo(1);
        assertThat(response.getRejectedList()).isEmpty();
        OutboundObservation observation =
                ObservationProtos.outbound(updater.store().current().get("a_up").orElseThrow());
        assertThat(observation.getPassive().getLastCallTime()).isEqualTo(at(applied));
    }

    @Test
    void reportOutcomesWhenTimeUnsetThenServersNow() {
        scheduler.advance(Duration.ofSeconds(3));

        ok(
                service::reportOutcomes,
                ReportOutcomesRequest.newBuilder()
                        .addOutcomes(outcome("a_up", Outcome.OUTCOME_SUCCESS).setLatencyNanos(2_500_000))
                        .build());
        scheduler.runDue();

        OutboundObservation observation =
                ObservationProtos.outbound(updater.store().current().get("a_up").orElseThrow());
        assertThat(observation.getPassive().getFirstCallTime()).isEqualTo(at(NOW.plusSeconds(3)));
        assertThat(observation.getPassive().getAverageLatencyNanos()).isEqualTo(2_500_000);
    }

    @Test
    void reportOutcomesWhenTenTransportFailuresThenPassiveUnhealthyAndLeftOutOfAvailable() {
        ReportOutcomesRequest.Builder request = ReportOutcomesRequest.newBuilder();
        for (int i = 0; i < 10; i++) {
            request.addOutcomes(outcome("a_up", Outcome.OUTCOME_TRANSPORT_FAILURE)
                    .setTransportFailure(TransportFailure.TRANSPORT_FAILURE_TIMEOUT));
        }

        ReportOutcomesResponse response = ok(service::reportOutcomes, request.build());
        scheduler.runDue();

        assertThat(response.getAccepted()).isEqualTo(10);
        OutboundHealth health = updater.store().current().get("a_up").orElseThrow();
        assertThat(health.passive().state()).isEqualTo(io.observatory.health.HealthState.UNHEALTHY);
        assertThat(health.verdict()).isEqualTo(io.observatory.health.HealthState.UNHEALTHY);
        ListAvailableResponse available = ok(service::listAvailable, selector(ListAvailableRequest.newBuilder(), "a_"));
        assertThat(available.getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("a_new");
    }

    @Test
    void reportOutcomesWhenEmptyThenAcceptedZero() {
        ReportOutcomesResponse response = ok(service::reportOutcomes, ReportOutcomesRequest.getDefaultInstance());

        assertThat(response.getAccepted()).isZero();
        assertThat(response.getRejectedList()).isEmpty();
        assertThat(scheduler.pendingTasks()).isZero();
    }

    @Test
    void reportOutcomesWhenTenThousandThenAllAccepted() {
        ReportOutcomesResponse response = ok(
                service::reportOutcomes,
                ReportOutcomesRequest.newBuilder()
                        .addAllOutcomes(Collections.nCopies(
                                10_000, outcome("b_up", Outcome.OUTCOME_SUCCESS).build()))
                        .build());
        scheduler.runDue();

        assertThat(response.getAccepted()).isEqualTo(10_000);
        assertThat(calls("b_up")).isEqualTo(10_000);
    }

    @Test
    void reportOutcomesWhenMoreThanTenThousandThenInvalidArgumentAndNothingApplied() {
        Status status = failure(
                service::reportOutcomes,
                ReportOutcomesRequest.newBuilder()
                        .addAllOutcomes(Collections.nCopies(
                                10_001, outcome("b_up", Outcome.OUTCOME_SUCCESS).build()))
                        .build());
        scheduler.runDue();

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo("outcomes: 10001 items (expected: at most 10000)");
        assertThat(updater.store().current().get("b_up").orElseThrow().passive().calls())
                .isNull();
    }

    @Test
    void reportOutcomesWhenTheWriterIsBehindThenResourceExhaustedUntilItCatchesUp() {
        ReportOutcomesRequest full = ReportOutcomesRequest.newBuilder()
                .addAllOutcomes(Collections.nCopies(
                        10_000, outcome("b_up", Outcome.OUTCOME_SUCCESS).build()))
                .build();
        for (int i = 0; i < ObservationUpdater.MAX_PENDING_REPORTS / 10_000; i++) {
            assertThat(ok(service::reportOutcomes, full).getAccepted()).isEqualTo(10_000);
        }

        Status refused = failure(service::reportOutcomes, full);
        scheduler.runDue();
        ReportOutcomesResponse afterwards = ok(service::reportOutcomes, full);
        scheduler.runDue();

        assertThat(refused.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(refused.getDescription())
                .isEqualTo("outcomes: the service is still applying 100000 earlier "
                        + "outcomes (expected: a retry after a moment)");
        assertThat(afterwards.getAccepted()).isEqualTo(10_000);
        assertThat(calls("b_up")).as("the refused call applied nothing").isEqualTo(110_000);
    }

    @Test
    void watchObservationWhenEmptyPrefixThenInvalidArgument() {
        Status status = failure(
                service::watchObservation,
                io.observatory.api.v1.WatchObservationRequest.newBuilder()
                        .addTagPrefixes("")
                        .build());

        assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(status.getDescription()).isEqualTo("tag_prefixes[0]: \"\" (expected: a non-empty tag prefix)");
    }

    // Helpers

    private long calls(String tag) {
        return updater.store()
                .current()
                .get(tag)
                .orElseThrow()
                .passive()
                .calls()
                .totalCalls();
    }

    private static PickRequest pick(String strategy, String... selector) {
        return PickRequest.newBuilder()
                .addAllSelector(List.of(selector))
                .setStrategy(strategy)
                .build();
    }

    private static ListAvailableRequest selector(ListAvailableRequest.Builder request, String... selector) {
        return request.addAllSelector(List.of(selector)).build();
    }

    private GetObservationResponse getObservation(GetObservationRequest request) {
        return ObservatoryServiceGrpc.newBlockingStub(channel).getObservation(request);
    }

    /** Calls a unary handler and returns its one response; fails the test on an error. */
    private static <Q, R> R ok(BiConsumer<Q, StreamObserver<R>> handler, Q request) {
        RecordingObserver<R> recorder = new RecordingObserver<>();
        handler.accept(request, recorder);
        assertThat(recorder.error()).as("error").isNull();
        assertThat(recorder.completed()).as("completed").isTrue();
        assertThat(recorder.values()).hasSize(1);
        return recorder.values().get(0);
    }

    /** Calls a handler and returns the status it failed with; fails the test on a response. */
    private static <Q, R> Status failure(BiConsumer<Q, StreamObserver<R>> handler, Q request) {
        RecordingObserver<R> recorder = new RecordingObserver<>();
        handler.accept(request, recorder);
        assertThat(recorder.values()).as("responses").isEmpty();
        assertThat(recorder.completed()).as("completed").isFalse();
        assertThat(recorder.error()).as("error").isNotNull();
        return Status.fromThrowable(recorder.error());
    }

    /** Answers {@link #nextInt(int)} from a script and records the bounds it was asked for. */
    private static final class ScriptedRandom implements RandomGenerator {
        final Deque<Integer> script = new ArrayDeque<>();
        final List<Integer> bounds = new ArrayList<>();

        void next(Integer... values) {
            script.addAll(List.of(values));
        }

        @Override
        public int nextInt(int bound) {
            bounds.add(bound);
            return script.remove();
        }

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("the random strategy draws an index with nextInt(bound)");
        }
    }
}
