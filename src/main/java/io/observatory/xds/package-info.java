/**
 * xDS (capability, {@code observatory.xds}): the verdicts as Envoy's and proxyless gRPC's endpoint discovery. Each
 * configured cluster (and, on a mesh hub, each route as {@code route/<route>}) is served over ADS, state of the world
 * or delta, as a listener, a route configuration, an EDS cluster and its load assignment, with each endpoint's
 * {@code health_status} the combined verdict. Served by envoyproxy's java-control-plane from one snapshot that the
 * {@link io.observatory.xds.XdsPublisher} rebuilds off the writer when something a client sees has changed.
 */
@NullMarked
package io.observatory.xds;

import org.jspecify.annotations.NullMarked;
