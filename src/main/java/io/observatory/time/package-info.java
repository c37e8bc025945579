/**
 * Injected time: the monotonic ticker and the wall clock.
 */
@NullMarked
package io.observatory.time;

import org.jspecify.annotations.NullMarked;
