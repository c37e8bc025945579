package io.observatory.incident.notify;

/**
 * Where notices go: an e-mail's recipients, a webhook. Called on the channel's own thread, one notice at a time; may
 * block up to its timeout.
 */
interface Channel {

    /** The channel's name in routes, logs and metrics, e.g. {@code email} or {@code ops-slack}. */
    String name();

    /**
     * Delivers {@code notice}.
     *
     * @throws Undeliverable when the receiver refused it for good (a 4xx answer but 408 and 429): retrying would not
     *     help, so it is dropped
     * @throws Exception     when it may succeed later (the receiver down, slow, a 5xx): it is retried
     */
    void send(Notice notice) throws Exception;

    /** A notice the receiver refused for good. */
    final class Undeliverable extends Exception {

        private static final long serialVersionUID = 1L;

        Undeliverable(String message) {
            super(message);
        }
    }
}
