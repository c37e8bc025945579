/**
 * Observatory: a health checker that probes proxy outbounds and upstream endpoints, judges their health and serves
 * the verdicts over gRPC.
 */
@NullMarked
package io.observatory;

import org.jspecify.annotations.NullMarked;
