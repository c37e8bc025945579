package io.observatory.api.auth;

import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.GetObservationResponse;
import io.observatory.api.v1.ListAvailableRequest;
import io.observatory.api.v1.ListAvailableResponse;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.PickRequest;
import io.observatory.api.v1.PickResponse;
import io.observatory.api.v1.ReportOutcomesRequest;
import io.observatory.api.v1.ReportOutcomesResponse;
import io.observatory.api.v1.Snapshot;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;

/**
 * The v1 service under its real descriptor ({@code observatory.v1.ObservatoryService}) with canned answers, so that
 * authentication is tested apart from what the methods do: every method answers at once and completes; a watch sends
 * one empty snapshot; a report accepts every outcome.
 */
public class CannedObservatoryService extends ObservatoryServiceGrpc.ObservatoryServiceImplBase {

    /** The tag {@code Pick} answers. */
    static final String PICKED = "canned";

    @Override
    public void getObservation(GetObservationRequest request, StreamObserver<GetObservationResponse> response) {
        response.onNext(GetObservationResponse.getDefaultInstance());
        response.onCompleted();
    }

    @Override
    public void watchObservation(WatchObservationRequest request, StreamObserver<WatchObservationResponse> response) {
        response.onNext(WatchObservationResponse.newBuilder()
                .setSnapshot(Snapshot.getDefaultInstance())
                .build());
        response.onCompleted();
    }

    @Override
    public void reportOutcomes(ReportOutcomesRequest request, StreamObserver<ReportOutcomesResponse> response) {
        response.onNext(ReportOutcomesResponse.newBuilder()
                .setAccepted(request.getOutcomesCount())
                .build());
        response.onCompleted();
    }

    @Override
    public void listAvailable(ListAvailableRequest request, StreamObserver<ListAvailableResponse> response) {
        response.onNext(ListAvailableResponse.getDefaultInstance());
        response.onCompleted();
    }

    @Override
    public void pick(PickRequest request, StreamObserver<PickResponse> response) {
        response.onNext(PickResponse.newBuilder().setTag(PICKED).build());
        response.onCompleted();
    }
}
