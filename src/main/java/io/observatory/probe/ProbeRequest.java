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
 * @param connectTimeout the deadline of each phase that opens the path, at most {@code timeout}: the TCP connect to
 *     the first hop, the proxy handshake, the TLS handshake, each on its own (HAProxy's {@code timeout connect})
 * @param client which of Xray's HTTP clients the probe behaves as
 */
public record ProbeRequest(
        Outbound outbound, URI url, String method, Duration timeout, Duration connectTimeout, Client client) {

    /**
     * Xray's three probing HTTP clients. Each probe opens a fresh connection and closes it after the response, and
     * speaks HTTP/1.1; they differ in what they announce, whether they read the body and whether they follow
     * redirects.
     */
    public enum Client {

        /**
         * The standard observer's ({@code app/observatory/observer.go}): keep-alive is not disabled, so no
         * {@code Connection} header; redirects are not followed; the body is not read.
         */
        STANDARD_OBSERVER(false, false, false),

        /**
         * The burst observer's ping through an outbound ({@code app/observatory/burst/ping.go},
         * {@code newHTTPClient}): {@code DisableKeepAlives}, so {@code Connection: close}; redirects are not followed;
         * the body of a GET is read and counted in the RTT.
         */
        BURST_PING(true, false, true),

        /**
         * The burst observer's direct connectivity check ({@code newDirectPingClient}, Go's default client):
         * no {@code Connection} header; redirects are followed as Go's client follows them ({@link ProbeHop}), and
         * the tenth redirect response is an error ("stopped after 10 redirects"); the body of a GET is read.
         */
        CONNECTIVITY_CHECK(false, true, true);

        /** Go's client fails on the redirect response that would make this many redirects: it follows one less. */
        static final int MAX_REDIRECTS = 10;

        private final boolean announcesClose;
        private final boolean followsRedirects;
        private final boolean readsBody;

        Client(boolean announcesClose, boolean followsRedirects, boolean readsBody) {
            this.announcesClose = announcesClose;
            this.followsRedirects = followsRedirects;
            this.readsBody = readsBody;
        }

        /** Whether the request carries {@code Connection: close}. */
        boolean announcesClose() {
            return announcesClose;
        }

        /** Whether 301, 302, 303, 307 and 308 responses with a Location are followed (see {@link #MAX_REDIRECTS}). */
        boolean followsRedirects() {
            return followsRedirects;
        }

        /** Whether the body of a response to {@code method} is read and counted in the RTT. */
        boolean readsBody(String method) {
            return readsBody && method.equals("GET");
        }
    }

    /** Clamps the connect deadline to the whole probe's. */
    public ProbeRequest {
        Objects.requireNonNull(outbound, "outbound");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(client, "client");
        connectTimeout = connectTimeout.compareTo(timeout) > 0 ? timeout : connectTimeout;
    }

    /** A probe with one deadline for everything, as Xray's observers have. */
    public ProbeRequest(Outbound outbound, URI url, String method, Duration timeout, Client client) {
        this(outbound, url, method, timeout, timeout, client);
    }

    /** Whether the whole response body of the first request is read and counted in the RTT. */
    public boolean readBody() {
        return client.readsBody(method);
    }
}
