package io.observatory.api.auth;

import io.grpc.Channel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.ListAvailableRequest;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.PickRequest;
import io.observatory.api.v1.ReportOutcomesRequest;
import io.observatory.api.v1.WatchObservationRequest;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Calls one v1 method as a client would, with or without {@code authorization} metadata, and returns its status. */
final class V1Calls {

    private V1Calls() {}

    /**
     * @param method        the bare method name, e.g. {@code ReportOutcomes}
     * @param authorization the {@code authorization} metadata value, or {@code null} for none
     * @return {@link Status#OK} when the call completed normally, else the status it failed with
     */
    static Status call(Channel channel, String method, String authorization) {
        return callWithEntries(channel, method, authorization == null ? List.of() : List.of(authorization));
    }

    /** Like {@link #call(Channel, String, String)}, with one {@code authorization} entry per element. */
    static Status callWithEntries(Channel channel, String method, List<String> authorizations) {
        Metadata headers = new Metadata();
        authorizations.forEach(authorization -> headers.put(Authorization.KEY, authorization));
        ObservatoryServiceGrpc.ObservatoryServiceBlockingStub stub = ObservatoryServiceGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .withDeadlineAfter(10, TimeUnit.SECONDS);
        try {
            switch (method) {
                case "GetObservation" -> stub.getObservation(GetObservationRequest.getDefaultInstance());
                case "WatchObservation" ->
                    stub.watchObservation(WatchObservationRequest.getDefaultInstance())
                            .forEachRemaining(event -> {});
                case "ReportOutcomes" -> stub.reportOutcomes(ReportOutcomesRequest.getDefaultInstance());
                case "ListAvailable" ->
                    stub.listAvailable(ListAvailableRequest.newBuilder()
                            .addSelector("lab-")
                            .build());
                case "Pick" ->
                    stub.pick(PickRequest.newBuilder()
                            .addSelector("lab-")
                            .setFallbackTag("lab-up")
                            .build());
                default -> throw new IllegalArgumentException("method: " + method + " (expected: a v1 method)");
            }
            return Status.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus();
        }
    }
}
