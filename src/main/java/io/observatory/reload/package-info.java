/**
 * Live reload: watching the external configuration files and applying valid changes without a restart.
 */
@NullMarked
package io.observatory.reload;

import org.jspecify.annotations.NullMarked;
