/**
 * The updater on the writer: applies observer statuses, passive reports and reloads, judges verdicts and publishes
 * the one observation.
 */
@NullMarked
package io.observatory.verdict;

import org.jspecify.annotations.NullMarked;
