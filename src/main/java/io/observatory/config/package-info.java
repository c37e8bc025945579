/**
 * The {@code observatory.*} configuration: immutable settings, how they are bound and validated, and the one-line
 * reports of bad values.
 */
@NullMarked
package io.observatory.config;

import org.jspecify.annotations.NullMarked;
