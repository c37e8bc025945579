/**
 * HAProxy's agent check (capability, {@code observatory.haproxy-agent}): a TCP port that answers HAProxy's
 * {@code agent-check} with an outbound's verdict, so that HAProxy's servers go DOWN, DRAIN and UP with Observatory's
 * verdicts. {@link io.observatory.haproxy.AgentAnswers} says what each verdict and each bad request gets;
 * {@link io.observatory.haproxy.HaproxyAgentServer} serves the port from the current snapshot, off the writer.
 */
@NullMarked
package io.observatory.haproxy;

import org.jspecify.annotations.NullMarked;
