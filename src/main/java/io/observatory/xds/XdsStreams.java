package io.observatory.xds;

import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the discovery server tells of its streams: how many are open, and each answer a client rejects (a NACK: the
 * request carries {@code error_detail}), counted, and logged once per stream with the client's node, the answer's
 * nonce and the client's reason, since the client then keeps its previous resources. Costs a node id per open stream.
 */
final class XdsStreams implements DiscoveryServerCallbacks {

    private static final Logger log = LoggerFactory.getLogger(XdsStreams.class);

    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();
    private final Set<Long> rejecting = ConcurrentHashMap.newKeySet();
    // Each open stream's client node, from its first request (later ones may leave the node out).
    private final Map<Long, String> nodes = new ConcurrentHashMap<>();

    /** Answers clients rejected since the start. */
    long rejected() {
        return rejected.get();
    }

    /** Streams open now. */
    int open() {
        return open.get();
    }

    @Override
    public void onStreamOpen(long streamId, String typeUrl) {
        open.incrementAndGet();
    }

    @Override
    public void onStreamClose(long streamId, String typeUrl) {
        closed(streamId);
    }

    @Override
    public void onStreamCloseWithError(long streamId, String typeUrl, Throwable error) {
        closed(streamId);
    }

    @Override
    public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
        if (request.hasNode()) {
            nodes.putIfAbsent(streamId, request.getNode().getId());
        }
        if (request.hasErrorDetail()) {
            rejected(streamId, request.getTypeUrl(), request.getResponseNonce(), request.getErrorDetail());
        }
    }

    @Override
    public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
        if (request.hasNode()) {
            nodes.putIfAbsent(streamId, request.getNode().getId());
        }
        if (request.hasErrorDetail()) {
            rejected(streamId, request.getTypeUrl(), request.getResponseNonce(), request.getErrorDetail());
        }
    }

    private void rejected(long streamId, String type, String nonce, com.google.rpc.Status error) {
        rejected.incrementAndGet();
        if (rejecting.add(streamId)) {
            log.warn(
                    "xds client {} rejected the {} answer with nonce {} and keeps its previous resources: {}; later"
                            + " rejections on its stream are counted in observatory_xds_rejected_total",
                    nodes.getOrDefault(streamId, "(no node id)"),
                    type,
                    nonce,
                    Status.fromCodeValue(error.getCode()).withDescription(error.getMessage()));
        }
    }

    private void closed(long streamId) {
        open.decrementAndGet();
        rejecting.remove(streamId);
        nodes.remove(streamId);
    }
}
