/**
 * RTT statistics: Xray's ring of burst samples with its validity window.
 */
@NullMarked
package io.observatory.stats;

import org.jspecify.annotations.NullMarked;
