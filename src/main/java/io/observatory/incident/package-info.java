/**
 * Incidents (capability, {@code observatory.incidents}): every period a subject spends in a bad state — an outbound
 * UNHEALTHY, a mesh server BLOCKED, a route in panic — opened on the transition and resolved on the way back, with its
 * reason and evidence. The {@link io.observatory.incident.IncidentTracker} turns the snapshot's conditions into
 * transitions on the writer; {@code incident.store} keeps them in a database; {@code incident.api} serves them.
 */
@NullMarked
package io.observatory.incident;

import org.jspecify.annotations.NullMarked;
