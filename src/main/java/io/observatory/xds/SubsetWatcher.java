package io.observatory.xds;

import io.envoyproxy.controlplane.cache.ConfigWatcher;
import io.envoyproxy.controlplane.cache.DeltaResponse;
import io.envoyproxy.controlplane.cache.DeltaWatch;
import io.envoyproxy.controlplane.cache.DeltaXdsRequest;
import io.envoyproxy.controlplane.cache.Response;
import io.envoyproxy.controlplane.cache.Watch;
import io.envoyproxy.controlplane.cache.XdsRequest;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The snapshot cache as every ADS client needs it: a state-of-the-world request is answered with the resources of the
 * names it asks for that exist, as the xDS protocol describes, even when one of them does not. java-control-plane's
 * cache holds an ADS answer back until every requested name exists and then drops the watch, so a client asking for
 * one cluster Observatory does not serve (a misspelt {@code xds:///} target, a cluster removed by a reload) would hear
 * nothing more of that resource type on its stream, for its other clusters too. Delta watches are the cache's own.
 */
final class SubsetWatcher implements ConfigWatcher {

    private final ConfigWatcher cache;

    SubsetWatcher(ConfigWatcher cache) {
        this.cache = cache;
    }

    /** The cache's watch, with ADS's all-names-or-nothing rule off. */
    @Override
    public Watch createWatch(
            boolean ads,
            XdsRequest request,
            Set<String> knownResourceNames,
            Consumer<Response> responseConsumer,
            boolean hasClusterChanged,
            boolean allowDefaultEmptyEdsUpdate) {
        return cache.createWatch(
                false, request, knownResourceNames, responseConsumer, hasClusterChanged, allowDefaultEmptyEdsUpdate);
    }

    @Override
    public DeltaWatch createDeltaWatch(
            DeltaXdsRequest request,
            String requesterVersion,
            Map<String, String> resourceVersions,
            Set<String> pendingResources,
            boolean isWildcard,
            Consumer<DeltaResponse> responseConsumer,
            boolean hasClusterChanged) {
        return cache.createDeltaWatch(
                request,
                requesterVersion,
                resourceVersions,
                pendingResources,
                isWildcard,
                responseConsumer,
                hasClusterChanged);
    }
}
