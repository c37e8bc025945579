package io.observatory.reload;

/** A changed configuration that cannot be applied; the message is one line naming what is wrong. */
final class RejectedConfigException extends RuntimeException {

    RejectedConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
