/**
 * The mesh over gRPC ({@code proto/observatory/mesh/v1/mesh.proto}): the reads a balancer calls
 * ({@code MeshService}: GetMesh, WatchMesh, ListRoute), the witnesses' calls ({@code WitnessService}: GetFleet, Report)
 * with the authentication that names the calling witness, the mapping between the wire and the hub's and witness's
 * types, and the witness's link to its hubs (over gRPC, or in this process).
 */
@NullMarked
package io.observatory.mesh.api;

import org.jspecify.annotations.NullMarked;
