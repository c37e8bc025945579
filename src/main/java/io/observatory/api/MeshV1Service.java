package io.observatory.api;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.observatory.api.auth.WitnessAuthInterceptor;
import io.observatory.api.mesh.v1.GetFleetRequest;
import io.observatory.api.mesh.v1.GetFleetResponse;
import io.observatory.api.mesh.v1.GetMeshRequest;
import io.observatory.api.mesh.v1.GetMeshResponse;
import io.observatory.api.mesh.v1.ListRouteRequest;
import io.observatory.api.mesh.v1.ListRouteResponse;
import io.observatory.api.mesh.v1.MeshServiceGrpc;
import io.observatory.api.mesh.v1.ReportRequest;
import io.observatory.api.mesh.v1.ReportResponse;
import io.observatory.api.mesh.v1.WatchMeshRequest;
import io.observatory.mesh.MeshHub;
import io.observatory.mesh.MeshLedger;
import io.observatory.mesh.MeshView;
import io.observatory.mesh.config.FleetWitnessSettings;
import io.observatory.mesh.config.HubSettings;
import java.time.Clock;
import java.util.Objects;
import org.springframework.stereotype.Service;

/**
 * The mesh API's {@code observatory.mesh.v1.MeshService} ({@code proto/observatory/mesh/v1/mesh.proto}) on a hub:
 * the witnesses' GetFleet and Report (identity from the {@link WitnessAuthInterceptor}), and the reads GetMesh,
 * WatchMesh (streams kept by {@link MeshWatchers}) and ListRoute, each answered from one {@link MeshView}.
 */
@Service
public final class MeshV1Service extends MeshServiceGrpc.MeshServiceImplBase {

    private final MeshHub hub;
    private final MeshWatchers watchers;
    private final Clock clock;

    /** @param clock the wall clock a report's process start is checked against */
    MeshV1Service(MeshHub hub, MeshWatchers watchers, Clock clock) {
        this.hub = hub;
        this.watchers = watchers;
        this.clock = clock;
    }

    /** Refuses a read on an instance whose role is no hub's; whether it did. */
    private boolean notHub(StreamObserver<?> responses) {
        if (hub.settings().role().hub()) {
            return false;
        }
        responses.onError(Status.FAILED_PRECONDITION
                .withDescription(WitnessAuthInterceptor.NOT_HUB)
                .asRuntimeException());
        return true;
    }

    @Override
    public void getFleet(GetFleetRequest request, StreamObserver<GetFleetResponse> responses) {
        HubSettings settings = hub.settings().hub();
        String caller = WitnessAuthInterceptor.WITNESS.get();
        FleetWitnessSettings witness = settings == null
                ? null
                : settings.witnesses().stream()
                        .filter(candidate -> candidate.name().equals(caller))
                        .findFirst()
                        .orElse(null);
        if (witness == null) {
            responses.onError(Status.PERMISSION_DENIED
                    .withDescription("witness " + caller + " is no longer in observatory.mesh.hub.witnesses")
                    .asRuntimeException());
            return;
        }
        responses.onNext(MeshProtos.fleet(settings, witness));
        responses.onCompleted();
    }

    /**
     * Takes a report. {@code PERMISSION_DENIED} when it names another witness than the caller's credential, or the
     * caller is no longer in the fleet; {@code INVALID_ARGUMENT} naming the field for a malformed one.
     */
    @Override
    public void report(ReportRequest request, StreamObserver<ReportResponse> responses) {
        String caller = Objects.requireNonNull(WitnessAuthInterceptor.WITNESS.get(), "witness");
        if (!request.getWitness().equals(caller)) {
            responses.onError(Status.PERMISSION_DENIED
                    .withDescription("report for witness "
                            + (request.getWitness().isEmpty() ? "(none)" : MeshProtos.text(request.getWitness()))
                            + " with the credential of witness " + caller + " (expected: witness " + caller + ")")
                    .asRuntimeException());
            return;
        }
        MeshLedger.Report report;
        try {
            report = MeshProtos.report(request, clock.instant());
        } catch (io.grpc.StatusRuntimeException e) {
            responses.onError(e);
            return;
        }
        hub.report(caller, report, outcome -> {
            if (outcome == MeshLedger.Outcome.REFUSED_UNKNOWN_WITNESS) {
                responses.onError(Status.PERMISSION_DENIED
                        .withDescription("witness " + caller + " is not in the hub's fleet")
                        .asRuntimeException());
                return;
            }
            responses.onNext(ReportResponse.newBuilder()
                    .setAccepted(outcome == MeshLedger.Outcome.ACCEPTED)
                    .build());
            responses.onCompleted();
        });
    }

    /** {@code FAILED_PRECONDITION} on an instance that is not a hub. */
    @Override
    public void getMesh(GetMeshRequest request, StreamObserver<GetMeshResponse> responses) {
        if (notHub(responses)) {
            return;
        }
        responses.onNext(MeshProtos.view(hub.view()));
        responses.onCompleted();
    }

    /** {@code FAILED_PRECONDITION} on an instance that is not a hub. */
    @Override
    public void watchMesh(WatchMeshRequest request, StreamObserver<GetMeshResponse> responses) {
        if (notHub(responses)) {
            return;
        }
        watchers.watch((ServerCallStreamObserver<GetMeshResponse>) responses);
    }

    /**
     * {@code NOT_FOUND} naming the known routes for a route the fleet does not have; {@code FAILED_PRECONDITION} on
     * an instance that is not a hub.
     */
    @Override
    public void listRoute(ListRouteRequest request, StreamObserver<ListRouteResponse> responses) {
        if (notHub(responses)) {
            return;
        }
        MeshView view = hub.view();
        view.judgement().routes().stream()
                .filter(route -> route.route().equals(request.getRoute()))
                .findFirst()
                .ifPresentOrElse(
                        route -> {
                            responses.onNext(ListRouteResponse.newBuilder()
                                    .setRoute(MeshProtos.route(route))
                                    .build());
                            responses.onCompleted();
                        },
                        () -> responses.onError(Status.NOT_FOUND
                                .withDescription("route: " + request.getRoute()
                                        + " (expected: one of "
                                        + view.judgement().routes().stream()
                                                .map(route -> route.route())
                                                .toList() + ")")
                                .asRuntimeException()));
    }
}
