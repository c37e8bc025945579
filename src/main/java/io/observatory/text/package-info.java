/**
 * Text utilities shared by every package: Go durations, quoting and redaction of user-supplied values for one-line
 * messages.
 */
@NullMarked
package io.observatory.text;

import org.jspecify.annotations.NullMarked;
