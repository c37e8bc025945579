/**
 * What a mesh hub and its witnesses exchange, whatever carries it: the fleet a witness probes, the report it sends (its
 * self-checks, and per entry point its failure streak and last probe), and the link between the two.
 */
@NullMarked
package io.observatory.mesh.protocol;

import org.jspecify.annotations.NullMarked;
