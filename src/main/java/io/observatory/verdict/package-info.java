/**
 * The verdict keeper: combines active and passive health into every outbound's verdict and publishes them.
 */
@NullMarked
package io.observatory.verdict;

import org.jspecify.annotations.NullMarked;
