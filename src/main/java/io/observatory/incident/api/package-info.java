/** Incidents over gRPC: {@code observatory.v1.IncidentService}'s {@code ListIncidents} and {@code WatchIncidents}. */
@NullMarked
package io.observatory.incident.api;

import org.jspecify.annotations.NullMarked;
