/**
 * Flow-controlled streams to clients, one primitive for all of them: the v1 API's {@code WatchObservation}, the mesh's
 * {@code WatchMesh}, the incidents' {@code WatchIncidents} and the status page's server-sent events. A
 * {@link io.observatory.stream.StreamRegistry} keeps one kind's open streams and ends them at shutdown; a
 * {@link io.observatory.stream.Pump} sends what a stream's {@link io.observatory.stream.Backlog} holds while its {@link io.observatory.stream.Outlet} takes it, one
 * send at a time on a delivery executor; the writer only offers, never waits for a client; a slow client's backlog is
 * conflated rather than queued without bound; what was sent and not yet taken counts against a shared
 * {@link io.observatory.stream.Budget}.
 */
@NullMarked
package io.observatory.stream;

import org.jspecify.annotations.NullMarked;
