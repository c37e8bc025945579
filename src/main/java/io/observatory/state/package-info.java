/**
 * Warm restart ({@code observatory.state}): the last snapshot written atomically to a file at a bounded rate, and read
 * back at start-up so a restarted instance serves its last statuses at once.
 */
@NullMarked
package io.observatory.state;

import org.jspecify.annotations.NullMarked;
