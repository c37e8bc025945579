/**
 * Pure health judging: active thresholds, expected statuses, passive policies, the combined verdict and
 * availability.
 */
@NullMarked
package io.observatory.health;

import org.jspecify.annotations.NullMarked;
