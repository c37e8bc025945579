package io.observatory.probe;

/**
 * A probe that follows redirects got the redirect response Go's client refuses ({@code net/http}'s default
 * {@code CheckRedirect}: "stopped after 10 redirects").
 */
final class RedirectLimitException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RedirectLimitException() {
        super("stopped after " + ProbeRequest.Client.MAX_REDIRECTS + " redirects", null, false, false);
    }
}
