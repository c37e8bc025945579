/**
 * The immutable observation snapshot the API serves and the store it is published through.
 */
@NullMarked
package io.observatory.status;

import org.jspecify.annotations.NullMarked;
