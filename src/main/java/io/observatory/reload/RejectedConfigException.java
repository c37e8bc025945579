package io.observatory.reload;

import org.jspecify.annotations.Nullable;

/** A changed configuration that cannot be applied; the message is one line naming what is wrong. */
final class RejectedConfigException extends RuntimeException {

    RejectedConfigException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
