/**
 * The prober: one fresh reactor-netty connection per probe, direct or through HTTP CONNECT or SOCKS5, with phase
 * timings and classified errors.
 */
@NullMarked
package io.observatory.probe;

import org.jspecify.annotations.NullMarked;
