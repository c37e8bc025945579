package io.observatory.xds;

import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the discovery server tells of its streams: how many are open, and a client that rejects what it was sent (a
 * NACK: the request carries {@code error_detail}), logged once per stream with the client's node and reason, since it
 * means the client keeps its previous resources. Costs one set entry per stream that has rejected something.
 */
final class XdsStreams implements DiscoveryServerCallbacks {

    private static final Logger log = LoggerFactory.getLogger(XdsStreams.class);

    private final AtomicInteger open = new AtomicInteger();
    private final Set<Long> rejecting = ConcurrentHashMap.newKeySet();

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
        if (request.hasErrorDetail() && rejecting.add(streamId)) {
            log.warn(
                    "xds client {} rejected {} version {}: {}",
                    request.getNode().getId(),
                    request.getTypeUrl(),
                    request.getVersionInfo(),
                    Status.fromCodeValue(request.getErrorDetail().getCode())
                            .withDescription(request.getErrorDetail().getMessage()));
        }
    }

    @Override
    public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
        if (request.hasErrorDetail() && rejecting.add(streamId)) {
            log.warn(
                    "xds client {} rejected {}: {}",
                    request.getNode().getId(),
                    request.getTypeUrl(),
                    Status.fromCodeValue(request.getErrorDetail().getCode())
                            .withDescription(request.getErrorDetail().getMessage()));
        }
    }

    private void closed(long streamId) {
        open.decrementAndGet();
        rejecting.remove(streamId);
    }
}
