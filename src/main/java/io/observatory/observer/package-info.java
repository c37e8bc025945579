/**
 * Scheduling of probes: Xray's standard and burst observers and the runtime that owns the active one.
 */
@NullMarked
package io.observatory.observer;

import org.jspecify.annotations.NullMarked;
