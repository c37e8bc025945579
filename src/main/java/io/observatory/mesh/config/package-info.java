/**
 * The mesh's section of the configuration, {@code observatory.mesh}: a hub's fleet and verdict rules
 * ({@code hub}), a witness's identity, self-checks, hubs and credential ({@code witness}); the role follows from which
 * of the two is set.
 */
@NullMarked
package io.observatory.mesh.config;

import org.jspecify.annotations.NullMarked;
