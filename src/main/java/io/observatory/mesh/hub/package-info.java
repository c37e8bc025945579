/**
 * The mesh hub: the ledger of each witness's latest report, the judging on the writer every second, the view it
 * publishes as the snapshot's {@code mesh} part with the marks on the entry points, the log of status transitions, and
 * the reports kept across a restart.
 */
@NullMarked
package io.observatory.mesh.hub;

import org.jspecify.annotations.NullMarked;
