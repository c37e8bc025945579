package io.observatory.probe;

import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Why a probe failed: a classified kind, the hop that failed, and a human-readable reason that names the outbound and
 * carries the underlying cause chain (the idea of Xray's error collector, {@code app/observatory/explainErrors.go}).
 *
 * @param kind classification, stable for metrics and policies
 * @param hop which hop failed
 * @param reason one line for operators: outbound, hop, what happened, cause chain
 * @param proxyReplyCode SOCKS5 reply code or HTTP CONNECT status when the proxy refused, else {@code null}
 */
public record ProbeError(
        Kind kind, Hop hop, String reason, @Nullable Integer proxyReplyCode) {

    public ProbeError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(hop, "hop");
        Objects.requireNonNull(reason, "reason");
    }

    /** The classification of a failed probe. */
    public enum Kind {
        /** A host name could not be resolved locally. */
        DNS_FAILURE,
        /** The TCP connection was actively refused. */
        CONNECTION_REFUSED,
        /** The connection (or the proxy handshake that establishes it) did not complete before the deadline. */
        CONNECT_TIMEOUT,
        /** The proxy rejected the credentials or demanded credentials we do not have (SOCKS5 auth, HTTP 407/401). */
        PROXY_AUTH_REJECTED,
        /** The proxy answered but did not connect to the target (SOCKS5 reply code, HTTP CONNECT status). */
        PROXY_REFUSED_TARGET,
        /** The TLS handshake with the target failed or timed out (untrusted certificate, wrong name, protocol). */
        TLS_HANDSHAKE_FAILURE,
        /** Connected, but no response headers (or body, when read) before the deadline. */
        RESPONSE_TIMEOUT,
        /** The connection was reset or closed before the response was complete. */
        CONNECTION_RESET,
        /** The peer spoke something that is not valid HTTP (or not the expected proxy protocol). */
        PROTOCOL_ERROR,
        /** A response arrived, but its HTTP status is not one the observer's {@code expected-status} accepts. */
        UNEXPECTED_STATUS,
        /** Anything else; the reason carries the cause chain. */
        OTHER;

        /** Returns the kind as metrics and the management endpoint show it: lower case, e.g. {@code dns_failure}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Which hop of the path failed. */
    public enum Hop {
        /** The proxy itself (unreachable, auth, handshake). */
        PROXY,
        /** The probe URL's host, directly or as dialled by the proxy. */
        TARGET;

        /** Returns the hop as the management endpoint shows it: {@code proxy} or {@code target}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
