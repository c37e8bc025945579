/**
 * The embedded demo network, active only with the {@code demo} profile.
 */
@NullMarked
package io.observatory.demo;

import org.jspecify.annotations.NullMarked;
