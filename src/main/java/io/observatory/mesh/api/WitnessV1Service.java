package io.observatory.mesh.api;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.observatory.mesh.api.v1.GetFleetRequest;
import io.observatory.mesh.api.v1.GetFleetResponse;
import io.observatory.mesh.api.v1.ReportRequest;
import io.observatory.mesh.api.v1.ReportResponse;
import io.observatory.mesh.api.v1.Server;
import io.observatory.mesh.api.v1.WitnessServiceGrpc;
import io.observatory.mesh.config.FleetWitnessSettings;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.hub.MeshLedger;
import io.observatory.snapshot.Memo;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * What witnesses call on a hub, {@code observatory.mesh.v1.WitnessService} ({@code
 * proto/observatory/mesh/v1/mesh.proto}): GetFleet and Report, the caller's identity from its credential ({@link
 * WitnessAuthInterceptor}, bound to this service alone).
 */
public final class WitnessV1Service extends WitnessServiceGrpc.WitnessServiceImplBase {

    private final MeshHub hub;
    private final Clock clock;
    // The fleet's server messages for the settings in force, built once for every GetFleet (each witness asks each
    // round: at 1,000 witnesses of a full 1,000-server mesh, 100 calls a second of 1,000 servers each).
    private final Memo<MeshHub.InForce, List<Server>> servers = new Memo<>(inForce ->
            MeshProtos.servers(Objects.requireNonNull(inForce.settings().hub(), "GetFleet answers only a hub")));

    /** @param clock the wall clock a report's process start is checked against */
    WitnessV1Service(MeshHub hub, Clock clock) {
        this.hub = hub;
        this.clock = clock;
    }

    @Override
    public void getFleet(GetFleetRequest request, StreamObserver<GetFleetResponse> responses) {
        MeshHub.InForce inForce = hub.inForce();
        HubSettings settings = inForce.settings().hub();
        String caller = WitnessAuthInterceptor.WITNESS.get();
        FleetWitnessSettings witness = settings == null
                ? null
                : settings.witnesses().stream()
                        .filter(candidate -> candidate.name().equals(caller))
                        .findFirst()
                        .orElse(null);
        if (settings == null || witness == null) {
            responses.onError(Status.PERMISSION_DENIED
                    .withDescription("witness " + caller + " is no longer in observatory.mesh.hub.witnesses")
                    .asRuntimeException());
            return;
        }
        responses.onNext(MeshProtos.fleet(settings, witness, inForce.assignment(), servers.get(inForce)));
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
        } catch (StatusRuntimeException e) {
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
}
