/**
 * The incidents' history where people look: the last 90 days of each subject's incidents, kept in memory from the
 * database and published as the snapshot's part {@code incidents}; availability over 24 hours, 7 and 30 days and a
 * 90-day strip computed from them; the status page's panel and each subject's card.
 */
@NullMarked
package io.observatory.incident.history;

import org.jspecify.annotations.NullMarked;
