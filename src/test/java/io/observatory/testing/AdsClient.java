package io.observatory.testing;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Envoy's first EDS request over ADS (state of the world), made by hand: what a cluster's endpoints are now. */
public final class AdsClient {

    /** The type URL of a cluster's load assignment. */
    public static final String ENDPOINTS = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

    private AdsClient() {}

    /**
     * The endpoints of {@code cluster} as the server's first answer gives them, each {@code host:port} with its health;
     * none when the answer holds no such cluster.
     *
     * @throws AssertionError when no answer comes within 10 s
     */
    public static Map<String, HealthStatus> endpoints(Channel channel, Node node, String cluster)
            throws InterruptedException, InvalidProtocolBufferException {
        BlockingQueue<DiscoveryResponse> answers = new LinkedBlockingQueue<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        StreamObserver<DiscoveryRequest> requests =
                AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(collect(answers, failure));
        try {
            requests.onNext(DiscoveryRequest.newBuilder()
                    .setNode(node)
                    .setTypeUrl(ENDPOINTS)
                    .addResourceNames(cluster)
                    .build());
            DiscoveryResponse answer = answers.poll(10, TimeUnit.SECONDS);
            if (answer == null) {
                throw new AssertionError("no EDS answer for " + cluster + " within 10 s", failure.get());
            }
            return answer.getResourcesCount() == 0
                    ? Map.of()
                    : endpoints(answer.getResources(0).unpack(ClusterLoadAssignment.class));
        } finally {
            requests.onCompleted();
        }
    }

    /** Each endpoint of {@code assignment}, {@code host:port} with its health. */
    public static Map<String, HealthStatus> endpoints(ClusterLoadAssignment assignment) {
        Map<String, HealthStatus> endpoints = new LinkedHashMap<>();
        assignment
                .getEndpointsList()
                .forEach(locality -> locality.getLbEndpointsList()
                        .forEach(endpoint -> endpoints.put(
                                endpoint.getEndpoint()
                                                .getAddress()
                                                .getSocketAddress()
                                                .getAddress() + ":"
                                        + endpoint.getEndpoint()
                                                .getAddress()
                                                .getSocketAddress()
                                                .getPortValue(),
                                endpoint.getHealthStatus())));
        return endpoints;
    }

    /** A stream observer that queues what it hears, and keeps in {@code failure} why its stream failed. */
    public static <T> StreamObserver<T> collect(BlockingQueue<T> into, AtomicReference<Throwable> failure) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                into.add(value);
            }

            @Override
            public void onError(Throwable t) {
                failure.set(t);
            }

            @Override
            public void onCompleted() {}
        };
    }
}
