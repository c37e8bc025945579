package io.observatory.api;

import static io.observatory.api.TagPrefixes.invalid;

import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.CallOutcome;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.GetObservationResponse;
import io.observatory.api.v1.ListAvailableRequest;
import io.observatory.api.v1.ListAvailableResponse;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.PickRequest;
import io.observatory.api.v1.PickResponse;
import io.observatory.api.v1.RejectedOutcome;
import io.observatory.api.v1.ReportOutcomesRequest;
import io.observatory.api.v1.ReportOutcomesResponse;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.health.Availability;
import io.observatory.pick.PickCandidate;
import io.observatory.pick.PickResult;
import io.observatory.pick.PickSettings;
import io.observatory.pick.Picker;
import io.observatory.pick.RoundRobinPositions;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.PassiveReport;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

/**
 * The v1 API's {@code observatory.v1.ObservatoryService} ({@code proto/observatory/v1/observatory.proto}):
 * GetObservation, WatchObservation (streams kept by {@link ObservationWatchers}), ListAvailable, Pick and
 * ReportOutcomes. Authentication is not done here but by an interceptor in front of the service.
 *
 * <p>Every call reads the current {@link Observation} once and answers from that snapshot; no
 * handler blocks or locks. Bad input is answered with {@link Status#INVALID_ARGUMENT} and a description naming the
 * field, the value and what was expected, e.g. {@code strategy: "fastest" (expected: random, round-robin, least-ping,
 * least-load)}.
 */
public final class ObservatoryV1Service implements ObservatoryServiceGrpc.AsyncService {

    /** How many prefixes of a selector a NOT_FOUND description names; the rest are counted. */
    private static final int SELECTOR_PREFIXES_SHOWN = 8;

    private final ObservationStore store;
    private final ObservationUpdater updater;
    private final Clock clock;
    private final Picker picker;
    private final ObservationWatchers watchers;
    private final PerObservation<SerializedMessage> fullObservation;

    /**
     * The service as Spring builds it: the random strategy draws from the calling thread's
     * {@link ThreadLocalRandom}, so concurrent calls share no generator state.
     *
     * @param store the observation every call answers from
     * @param clock wall clock: the time of a report without {@code time}, and the reference of the time window
     */
    public ObservatoryV1Service(
            ObservationStore store, ObservationUpdater updater, Clock clock, ObservationWatchers watchers) {
        this(store, updater, clock, () -> ThreadLocalRandom.current().nextLong(), watchers);
    }

    /**
     * @param random the source of random and least-load choices; called from gRPC's threads, so it must be safe for
     *     concurrent use
     */
    ObservatoryV1Service(
            ObservationStore store,
            ObservationUpdater updater,
            Clock clock,
            RandomGenerator random,
            ObservationWatchers watchers) {
        this.store = store;
        this.updater = updater;
        this.clock = clock;
        this.picker = new Picker(random, new RoundRobinPositions());
        this.watchers = watchers;
        this.fullObservation = new PerObservation<>(
                store, observation -> SerializedMessage.of(observationResponse(observation.matching(List.of()))));
    }

    /**
     * The generated service with {@code GetObservation} answered as bytes: the unfiltered answer serialized once per
     * snapshot, a filtered one for its call.
     */
    public ServerServiceDefinition bindService() {
        return SerializedMethods.rebind(
                ObservatoryServiceGrpc.bindService(this),
                ObservatoryServiceGrpc.getGetObservationMethod(),
                this::getObservationBytes);
    }

    /**
     * GetObservation: every outbound whose tag starts with one of {@code tag_prefixes} (every outbound for none),
     * sorted by tag, with its active and passive states, verdict, probe evidence and statistics
     * ({@link ObservationProtos#outbound}). INVALID_ARGUMENT when {@code tag_prefixes} breaks the limits
     * ({@link TagPrefixes}).
     */
    private void getObservationBytes(GetObservationRequest request, StreamObserver<SerializedMessage> responses) {
        respond(responses, () -> {
            List<String> tagPrefixes = request.getTagPrefixesList();
            TagPrefixes.validate("tag_prefixes", tagPrefixes, false);
            return tagPrefixes.isEmpty()
                    ? fullObservation.get()
                    : SerializedMessage.streamed(
                            observationResponse(store.current().matching(tagPrefixes)));
        });
    }

    private static GetObservationResponse observationResponse(List<OutboundHealth> outbounds) {
        GetObservationResponse.Builder response = GetObservationResponse.newBuilder();
        outbounds.forEach(outbound -> response.addOutbounds(ObservationProtos.outbound(outbound)));
        return response.build();
    }

    /**
     * The full observation of the outbounds matching {@code tag_prefixes} (all for none), then one event per real
     * change, buffered per stream with a snapshot resync on overflow and a final {@code serving_ended} on shutdown
     * ({@link ObservationWatchers}). INVALID_ARGUMENT when {@code tag_prefixes} breaks the limits.
     */
    @Override
    public void watchObservation(WatchObservationRequest request, StreamObserver<WatchObservationResponse> responses) {
        try {
            TagPrefixes.validate("tag_prefixes", request.getTagPrefixesList(), false);
        } catch (StatusRuntimeException e) {
            responses.onError(e);
            return;
        }
        watchers.watch(request.getTagPrefixesList(), responses);
    }

    /**
     * The outbounds of {@code selector} a balancer may use now, sorted by tag, after the configured availability
     * policy (YARP's HealthyAndUnknown / HealthyOrPanic with Envoy's panic threshold): only UNHEALTHY verdicts are
     * excluded, and in panic every selected outbound is returned with {@code panic = true}. INVALID_ARGUMENT when
     * {@code selector} is empty or breaks the limits.
     */
    @Override
    public void listAvailable(ListAvailableRequest request, StreamObserver<ListAvailableResponse> responses) {
        respond(responses, () -> {
            TagPrefixes.validate("selector", request.getSelectorList(), true);
            Availability<OutboundHealth> selection = store.current().available(request.getSelectorList());
            return ListAvailableResponse.newBuilder()
                    .setPanic(selection.panic())
                    .addAllOutbounds(selection.usable().stream()
                            .map(ObservationProtos::outbound)
                            .toList())
                    .build();
        });
    }

    /**
     * Picks one outbound of {@code selector} with one of Xray's balancer strategies. The candidates are the available
     * outbounds (as {@link #listAvailable}) that an observer has probed at least once; {@code panic} says whether the
     * availability policy was in panic. When nothing can be picked, {@code fallback_tag} is returned with
     * {@code fallback = true}; without one the call fails with NOT_FOUND, e.g. {@code nothing to pick for selector
     * ["edge_"]: 3 selected, 1 available, 0 of them probed}. INVALID_ARGUMENT for a bad selector, an unknown
     * strategy or bad least-load settings. Round-robin continues per selector (the prefixes in request order).
     */
    @Override
    public void pick(PickRequest request, StreamObserver<PickResponse> responses) {
        respond(responses, () -> {
            List<String> selector = request.getSelectorList();
            TagPrefixes.validate("selector", selector, true);
            PickSettings settings = PickRequests.settings(request);
            Observation observation = store.current();
            Availability<OutboundHealth> selection = observation.available(selector);
            List<PickCandidate> candidates = selection.usable().stream()
                    .filter(OutboundHealth::probed)
                    .map(outbound -> new PickCandidate(
                            outbound.tag(),
                            outbound.alive(),
                            outbound.delayMillis(),
                            outbound.probe() == null ? null : outbound.probe().healthPing()))
                    .toList();
            Optional<PickResult> picked = picker.pick(settings, String.join("\n", selector), candidates);
            if (picked.isPresent()) {
                return PickResponse.newBuilder()
                        .setPanic(selection.panic())
                        .setTag(picked.get().tag())
                        .setFallback(picked.get().fallback())
                        .build();
            }
            throw Status.NOT_FOUND
                    .withDescription("nothing to pick for selector " + describe(selector) + ": "
                            + observation.matching(selector).size() + " selected, "
                            + selection.usable().size() + " available, "
                            + candidates.size() + " of them probed"
                            + (candidates.isEmpty() ? "" : ", and " + request.getStrategy() + " chose none"))
                    .asRuntimeException();
        });
    }

    /**
     * Applies outcomes of real calls to passive health. Each item is checked on its own; a refused item is listed in
     * {@code rejected} with its index and reason, every other item is applied (in one batch, in order) and counted
     * in {@code accepted}. Reasons ({@link OutcomeReports#problem}): {@code tag: "" (expected: a configured outbound
     * tag)}, {@code unknown outbound tag "x"}, {@code outcome: OUTCOME_UNSPECIFIED (expected: ...)}, a
     * {@code transport_failure} without {@code OUTCOME_TRANSPORT_FAILURE}, a {@code latency_nanos} outside 0-24 hours,
     * or a {@code time} not a valid timestamp, more than {@link OutcomeReports#MAX_OUTCOME_AGE} before or more than
     * {@link OutcomeReports#MAX_OUTCOME_LEAD} after the server's clock. An unset time is the server's now; a time
     * ahead of it (within the lead) is taken as now. INVALID_ARGUMENT for more than
     * {@link OutcomeReports#MAX_OUTCOMES} outcomes; an empty list is accepted (0). RESOURCE_EXHAUSTED, nothing
     * applied, while {@link ObservationUpdater#MAX_PENDING_REPORTS} earlier outcomes wait for the writer.
     */
    @Override
    public void reportOutcomes(ReportOutcomesRequest request, StreamObserver<ReportOutcomesResponse> responses) {
        respond(responses, () -> {
            int count = request.getOutcomesCount();
            if (count > OutcomeReports.MAX_OUTCOMES) {
                throw invalid("outcomes: " + count + " items (expected: at most " + OutcomeReports.MAX_OUTCOMES + ")");
            }
            Observation observation = store.current();
            Instant now = clock.instant();
            ReportOutcomesResponse.Builder response = ReportOutcomesResponse.newBuilder();
            List<PassiveReport> accepted = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                CallOutcome item = request.getOutcomes(i);
                String problem = OutcomeReports.problem(item, observation, now);
                if (problem == null) {
                    accepted.add(OutcomeReports.report(item, now));
                } else {
                    response.addRejected(
                            RejectedOutcome.newBuilder().setIndex(i).setReason(problem));
                }
            }
            if (!accepted.isEmpty() && !updater.report(accepted)) {
                throw Status.RESOURCE_EXHAUSTED
                        .withDescription("outcomes: the service is still applying "
                                + ObservationUpdater.MAX_PENDING_REPORTS
                                + " earlier outcomes (expected: a retry after a "
                                + "moment)")
                        .asRuntimeException();
            }
            return response.setAccepted(accepted.size()).build();
        });
    }

    /** A selector for a description: its first prefixes, quoted, and how many more there are. */
    private static String describe(List<String> selector) {
        String shown = selector.stream()
                .limit(SELECTOR_PREFIXES_SHOWN)
                .map(TagPrefixes::quote)
                .collect(Collectors.joining(", "));
        int more = selector.size() - SELECTOR_PREFIXES_SHOWN;
        return "[" + shown + (more > 0 ? ", ... " + more + " more" : "") + "]";
    }

    /** Answers with {@code handler}'s response, or with the status it threw. */
    private static <T> void respond(StreamObserver<T> responses, Supplier<T> handler) {
        T response;
        try {
            response = handler.get();
        } catch (StatusRuntimeException e) {
            responses.onError(e);
            return;
        }
        responses.onNext(response);
        responses.onCompleted();
    }
}
