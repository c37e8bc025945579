/**
 * Xray's balancer strategies (random, round-robin, least-ping, least-load) as pure functions.
 */
@NullMarked
package io.observatory.pick;

import org.jspecify.annotations.NullMarked;
