/**
 * The mesh's roles: the hub's ledger of witness reports (and, as they arrive, the witness and the mesh services);
 * the verdict itself is pure judging in {@link io.observatory.mesh.judge}.
 */
@NullMarked
package io.observatory.mesh;

import org.jspecify.annotations.NullMarked;
