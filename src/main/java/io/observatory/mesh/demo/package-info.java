/**
 * The mesh demo, active only with the {@code mesh-demo} profile: a hub, four witnesses, their servers' entry points
 * and a scripted story of faults, in one process on loopback.
 */
@NullMarked
package io.observatory.mesh.demo;

import org.jspecify.annotations.NullMarked;
