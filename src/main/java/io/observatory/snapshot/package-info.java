/**
 * The one immutable snapshot every reader reads and its writer: the {@link io.observatory.snapshot.Observation} of
 * every outbound (observer status, passive state, the states of the capabilities' health sources, the combined
 * verdict) with the capabilities' parts, the store it is published through with its change events, and the updater
 * that applies observer statuses, passive reports, capability publications and reloads on the writer.
 */
@NullMarked
package io.observatory.snapshot;

import org.jspecify.annotations.NullMarked;
