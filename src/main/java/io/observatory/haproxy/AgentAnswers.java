package io.observatory.haproxy;

import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.OutboundHealth;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What the agent answers HAProxy, a pure function of the request line and the current observation. HAProxy reads the
 * words of one line (HAProxy's configuration manual, {@code agent-check}): {@code up} and {@code down} set the server's
 * operating state, {@code ready} and {@code drain} its administrative state, and text after {@code #} following
 * {@code down} is the reason shown on its stats page.
 *
 * <table>
 *   <caption>answers</caption>
 *   <tr><th>request</th><th>answer</th><th>HAProxy shows</th></tr>
 *   <tr><td>a HEALTHY outbound</td><td>{@code up ready}</td><td>UP (a DRAIN this agent set is lifted)</td></tr>
 *   <tr><td>an outbound not judged yet (UNKNOWN)</td><td>{@code up ready}</td><td>UP, as the default
 *       availability policy (healthy and unknown) counts it</td></tr>
 *   <tr><td>a DEGRADED outbound</td><td>{@code up drain}</td><td>DRAIN: only persistent sessions</td></tr>
 *   <tr><td>an UNHEALTHY outbound</td><td>{@code down #<reason>}</td><td>DOWN, with the verdict's reason</td></tr>
 *   <tr><td>a tag no outbound has</td><td>{@code down #no outbound "<tag>"}</td><td>DOWN: a misspelt
 *       {@code agent-send}, or an outbound removed from the configuration, shows at once rather than never</td></tr>
 *   <tr><td>an empty line, or one with control characters or over {@value #MAX_TAG} bytes</td><td>{@code down
 *       #bad agent-send …}</td><td>DOWN, saying what is wrong with the request</td></tr>
 * </table>
 *
 * <p>{@code ready} also lifts a DRAIN or MAINT an administrator set on HAProxy's CLI: to hold a server out by hand, also
 * turn its agent off there ({@code disable agent <backend>/<server>}).
 */
final class AgentAnswers {

    /** The longest tag a request may carry, in bytes; a longer line is refused. */
    static final int MAX_TAG = 255;

    /** The longest reason sent after {@code #}. */
    static final int MAX_REASON = 120;

    /** The answer to an empty request line. */
    static final String NO_TAG = "down #bad agent-send: no outbound tag before the newline\n";

    /** The answer to a request line with control characters or too long. */
    static final String BAD_TAG =
            "down #bad agent-send: an outbound tag has at most " + MAX_TAG + " bytes and no control characters\n";

    private AgentAnswers() {}

    /**
     * The answer line, newline included.
     *
     * @param line the request line without its line break, as HAProxy's {@code agent-send} sent it
     */
    static String answer(String line, Observation observation) {
        String tag = line.strip();
        if (tag.isEmpty()) {
            return NO_TAG;
        }
        if (tag.getBytes(StandardCharsets.UTF_8).length > MAX_TAG || tag.chars().anyMatch(Character::isISOControl)) {
            return BAD_TAG;
        }
        Optional<OutboundHealth> outbound = observation.get(tag);
        if (outbound.isEmpty()) {
            return "down #no outbound \"" + printable(tag) + "\"\n";
        }
        HealthState verdict = outbound.get().verdict();
        return switch (verdict) {
            case HEALTHY, UNKNOWN -> "up ready\n";
            case DEGRADED -> "up drain\n";
            case UNHEALTHY -> "down #" + printable(reason(outbound.get())) + "\n";
        };
    }

    /** The word an answer starts with, for metrics: {@code up}, {@code drain} or {@code down}. */
    static String word(String answer) {
        return answer.startsWith("up drain") ? "drain" : answer.startsWith("up") ? "up" : "down";
    }

    private static String reason(OutboundHealth outbound) {
        String error = outbound.lastErrorReason();
        return error.isBlank() ? outbound.lastChangeReason() : error;
    }

    /** Printable ASCII only, at most {@value #MAX_REASON} characters: HAProxy reads one line of words. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_REASON));
        for (int i = 0; i < text.length() && out.length() < MAX_REASON; i++) {
            char c = text.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.toString();
    }
}
