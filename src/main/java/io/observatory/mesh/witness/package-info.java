/**
 * The mesh witness: fetches the fleet from the hubs, probes every other server's entry points as a client would,
 * runs the self-checks of its own server and reports its whole state to every hub each report interval.
 */
@NullMarked
package io.observatory.mesh.witness;

import org.jspecify.annotations.NullMarked;
