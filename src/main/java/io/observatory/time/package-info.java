/**
 * Time and the single writer: the monotonic {@link io.observatory.time.Ticker}, and the serialising
 * {@link io.observatory.time.Scheduler} every state change runs on, so that scheduling is tested with fake time.
 */
@NullMarked
package io.observatory.time;

import org.jspecify.annotations.NullMarked;
