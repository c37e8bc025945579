package io.observatory.probe;

import io.observatory.config.Outbound;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * One probe to send: which outbound, which URL, how, and the deadline.
 *
 * @param outbound the path the probe goes through
 * @param url absolute http or https URL; its host name is handed to a proxy unresolved
 * @param method HTTP method (Xray: GET for the standard observer, the configured method for burst)
 * @param timeout hard deadline for the whole probe: connect, proxy handshake, TLS handshake and response
 * @param readBody {@code true} to read the whole response body and count it in the RTT (Xray burst with GET)
 */
public record ProbeRequest(Outbound outbound, URI url, String method, Duration timeout, boolean readBody) {

    public ProbeRequest {
        Objects.requireNonNull(outbound, "outbound");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(timeout, "timeout");
    }

    /** Returns {@code true} for https URLs. */
    public boolean secure() {
        return "https".equalsIgnoreCase(url.getScheme());
    }
}
