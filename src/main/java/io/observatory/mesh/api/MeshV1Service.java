package io.observatory.mesh.api;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.observatory.mesh.api.v1.GetMeshRequest;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.ListRouteRequest;
import io.observatory.mesh.api.v1.ListRouteResponse;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.WatchMeshRequest;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.hub.MeshView;

/**
 * The mesh API's reads, {@code observatory.mesh.v1.MeshService} ({@code proto/observatory/mesh/v1/mesh.proto}), on a
 * hub: GetMesh, WatchMesh (streams kept by {@link MeshWatchers}) and ListRoute, each answered from one
 * {@link MeshView}. The witnesses' calls are {@link WitnessV1Service}'s.
 */
public final class MeshV1Service extends MeshServiceGrpc.MeshServiceImplBase {

    private final MeshHub hub;
    private final MeshWatchers watchers;

    MeshV1Service(MeshHub hub, MeshWatchers watchers) {
        this.hub = hub;
        this.watchers = watchers;
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
        watchers.watch((ServerCallStreamObserver<GetMeshResponse>) responses, request.getIncludePaths());
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
