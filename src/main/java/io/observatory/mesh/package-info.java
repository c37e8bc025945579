/**
 * The mesh: multi-vantage verdicts, one capability. Its parts, each a package: {@link io.observatory.mesh.config}
 * ({@code observatory.mesh}: the hub's fleet and rules, the witness's name, hubs and credential),
 * {@link io.observatory.mesh.judge} (pure judging), {@link io.observatory.mesh.protocol} (what a hub and a witness
 * exchange), {@link io.observatory.mesh.hub} (the ledger of reports, the published view, the marks on the entry
 * points), {@link io.observatory.mesh.witness} (probing the neighbours, self-checks, reports),
 * {@link io.observatory.mesh.api} (the gRPC services and the witness's client), {@link io.observatory.mesh.view} (the
 * endpoint's JSON, the metrics, the status page's panel) and {@link io.observatory.mesh.demo}. It reaches the core
 * through its ports only: a configuration section, a part of the snapshot with a health source, a checkpoint, a part
 * view, and the observers' probe sessions. This package wires them.
 */
@NullMarked
package io.observatory.mesh;

import org.jspecify.annotations.NullMarked;
