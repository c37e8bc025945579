package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.MetadataUtils;
import io.observatory.api.auth.ApiGuard;
import io.observatory.api.auth.ApiToken;
import io.observatory.api.v1.CallOutcome;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.ListAvailableRequest;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.ObservatoryServiceGrpc.ObservatoryServiceBlockingStub;
import io.observatory.api.v1.OutboundObservation;
import io.observatory.api.v1.Outcome;
import io.observatory.api.v1.ReportOutcomesRequest;
import io.observatory.api.v1.ReportOutcomesResponse;
import io.observatory.api.v1.TransportFailure;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.config.ApiAuthSettings;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The guard in front of the real services, bound to each as the running service binds it, over gRPC's
 * in-process transport with direct executors: each call runs on the test thread, and the writer is fake time that
 * the test steps. Outbounds: {@code proxy_a} (probed, healthy) and {@code proxy_b} (never probed).
 */
class AuthenticatedApiInProcessTest {

    private static final String TOKEN = "aW4tcHJvY2Vzcy10b2tlbi0zMi1ieXRlcy1sb25n";
    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final FakeScheduler writer = new FakeScheduler();
    private final ObservationUpdater updater =
            new ObservationUpdater(Configs.direct(List.of("proxy_a", "proxy_b")), writer, writer.clock());
    private final ObservationWatchers watchers = new ObservationWatchers(updater.store());
    private Server server;
    private ManagedChannel channel;

    private void serve(boolean requireForReads) throws IOException {
        serve(requireForReads, false);
    }

    /** The services bound through the guard as the running service binds them ({@link ApiServicesConfiguration}). */
    private void serve(boolean requireForReads, boolean xrayReadsOpen) throws IOException {
        HealthStatusManager health = new HealthStatusManager();
        new OutboundHealthStatuses(health, updater.store());
        writer.execute(() -> ObserverOutput.publish(
                updater,
                List.of(new OutboundStatus(
                        "proxy_a",
                        true,
                        12,
                        "",
                        writer.clock().instant(),
                        writer.clock().instant(),
                        null,
                        null,
                        new ActiveHealth(HealthState.HEALTHY, 1, 0),
                        "probe succeeded: HTTP 204 in 12 ms"))));
        writer.runDue();
        ApiGuard guard = new ApiGuard(
                new ApiAuthSettings(null, "OBSERVATORY_API_TOKEN", requireForReads, xrayReadsOpen),
                settings -> ApiToken.of(settings.token(), Map.of("OBSERVATORY_API_TOKEN", TOKEN)::get, writer),
                false,
                List.of());
        ApiServicesConfiguration services = new ApiServicesConfiguration();
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .directExecutor()
                .addService(services.observatoryV1Service(guard, updater.store(), updater, writer.clock(), watchers))
                .addService(services.xrayObservatoryService(guard, new XrayObservatoryService(updater.store())))
                .addService(services.grpcHealthService(guard, health))
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        watchers.destroy();
    }

    private ObservatoryServiceBlockingStub v1(@Nullable String authorization) {
        Metadata headers = new Metadata();
        if (authorization != null) {
            headers.put(AUTHORIZATION, authorization);
        }
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .withDeadlineAfter(5, TimeUnit.SECONDS);
    }

    private static ReportOutcomesRequest failures(String tag, int count) {
        CallOutcome failure = CallOutcome.newBuilder()
                .setTag(tag)
                .setOutcome(Outcome.OUTCOME_TRANSPORT_FAILURE)
                .setTransportFailure(TransportFailure.TRANSPORT_FAILURE_CONNECT)
                .setLatencyNanos(1_000_000)
                .build();
        return ReportOutcomesRequest.newBuilder()
                .addAllOutcomes(java.util.Collections.nCopies(count, failure))
                .build();
    }

    private OutboundObservation observed(String tag) {
        return v1("Bearer " + TOKEN)
                .getObservation(
                        GetObservationRequest.newBuilder().addTagPrefixes(tag).build())
                .getOutbounds(0);
    }

    private ServingStatus outboundHealth(String tag) {
        Metadata headers = new Metadata();
        headers.put(AUTHORIZATION, "Bearer " + TOKEN);
        return HealthGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder()
                        .setService(OutboundHealthStatuses.SERVICE_PREFIX + tag)
                        .build())
                .getStatus();
    }

    @Test
    void reportWhenBearerTokenThenOutcomesReachPassiveHealthAndTheVerdictFollowsEverywhere() throws IOException {
        serve(false);
        assertThat(outboundHealth("proxy_a")).isEqualTo(ServingStatus.SERVING);

        ReportOutcomesResponse response = v1("Bearer " + TOKEN).reportOutcomes(failures("proxy_a", 10));
        writer.runDue();

        assertThat(response.getAccepted()).isEqualTo(10);
        OutboundObservation proxyA = observed("proxy_a");
        assertThat(proxyA.getPassive().getTotalCalls()).isEqualTo(10);
        assertThat(proxyA.getPassiveState()).isEqualTo(io.observatory.api.v1.HealthState.HEALTH_STATE_UNHEALTHY);
        assertThat(proxyA.getVerdict()).isEqualTo(io.observatory.api.v1.HealthState.HEALTH_STATE_UNHEALTHY);
        assertThat(outboundHealth("proxy_a")).isEqualTo(ServingStatus.NOT_SERVING);
    }

    @Test
    void reportWhenNoOrWrongTokenThenUnauthenticatedAndNothingIsRecorded() throws IOException {
        serve(false);

        assertThatThrownBy(() -> v1(null).reportOutcomes(failures("proxy_a", 10)))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
                    assertThat(e.getStatus().getDescription()).isEqualTo("missing bearer token or client certificate");
                });
        assertThatThrownBy(() -> v1("Bearer " + TOKEN + "x").reportOutcomes(failures("proxy_a", 10)))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getDescription()).isEqualTo("invalid bearer token"));
        writer.runDue();

        assertThat(observed("proxy_a").hasPassive()).isFalse();
        assertThat(outboundHealth("proxy_a")).isEqualTo(ServingStatus.SERVING);
    }

    @Test
    void reportWhenUnauthenticatedThenRefusedBeforeTheRequestIsExamined() throws IOException {
        serve(false);

        Status unauthenticated = statusOf(() -> v1(null).reportOutcomes(failures("proxy_a", 100_000)));
        Status authenticated = statusOf(() -> v1("Bearer " + TOKEN).reportOutcomes(failures("proxy_a", 100_000)));
        ReportOutcomesResponse unknownTag = v1("Bearer " + TOKEN).reportOutcomes(failures("nope", 1));

        assertThat(unauthenticated.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(authenticated.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(authenticated.getDescription()).startsWith("outcomes: 100000 items (expected: at most ");
        assertThat(unknownTag.getAccepted()).isZero();
        assertThat(unknownTag.getRejected(0).getReason()).isEqualTo("unknown outbound tag \"nope\"");
    }

    @Test
    void readsWhenRequiredThenEveryServicesReadsNeedTheTokenButTheServersOwnHealth() throws IOException {
        serve(true);

        Status observation = statusOf(() -> v1(null).getObservation(GetObservationRequest.getDefaultInstance()));
        Status available = statusOf(() -> v1(null).listAvailable(
                        ListAvailableRequest.newBuilder().addSelector("proxy_").build()));
        Status watch = statusOf(() -> v1(null).watchObservation(WatchObservationRequest.getDefaultInstance())
                .hasNext());
        Status xray = statusOf(this::xrayStatuses);
        Status outboundHealth = statusOf(() -> HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder()
                        .setService(OutboundHealthStatuses.SERVICE_PREFIX + "proxy_a")
                        .build()));
        ServingStatus server = HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance())
                .getStatus();

        assertThat(List.of(observation, available, watch, xray, outboundHealth))
                .extracting(Status::getCode)
                .containsOnly(Status.Code.UNAUTHENTICATED);
        assertThat(server)
                .as("the server's own status, which Kubernetes' probes check without a credential")
                .isEqualTo(ServingStatus.SERVING);
        assertThat(observed("proxy_a").getVerdict()).isEqualTo(io.observatory.api.v1.HealthState.HEALTH_STATE_HEALTHY);
        assertThat(outboundHealth("proxy_a")).isEqualTo(ServingStatus.SERVING);
    }

    @Test
    void readsWhenRequiredAndXrayReadsOpenThenXraysClientsReadWithoutATokenAndTheRestStillNeedsIt() throws IOException {
        serve(true, true);

        assertThat(xrayStatuses())
                .extracting(status -> status.getOutboundTag(), status -> status.getAlive())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("proxy_a", true));
        assertThat(statusOf(() -> v1(null).getObservation(GetObservationRequest.getDefaultInstance()))
                        .getCode())
                .isEqualTo(Status.Code.UNAUTHENTICATED);
    }

    private List<io.observatory.api.xray.OutboundStatus> xrayStatuses() {
        return io.observatory.api.xray.ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusList();
    }

    @Test
    void watchWhenAuthorizedThenTheFirstMessageIsTheObservation() throws IOException {
        serve(true);

        Iterator<WatchObservationResponse> stream =
                v1("Bearer " + TOKEN).watchObservation(WatchObservationRequest.getDefaultInstance());
        writer.runDue();

        assertThat(stream.next().getSnapshot().getOutboundsList())
                .extracting(OutboundObservation::getTag)
                .containsExactly("proxy_a", "proxy_b");
    }

    private static Status statusOf(Runnable call) {
        try {
            call.run();
            return Status.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus();
        }
    }
}
