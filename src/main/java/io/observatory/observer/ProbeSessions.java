package io.observatory.observer;

import io.observatory.config.Outbound;
import io.observatory.config.StandardObserverSettings;
import io.observatory.probe.Prober;
import io.observatory.snapshot.StatusSink;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Probe sessions for a capability that probes outbounds of its own — a mesh witness its neighbours' entry points —
 * with the standard observer's per-outbound sessions and active policy, as Envoy's health discovery service has its
 * endpoints checked by the health checkers of its clusters ({@code
 * source/common/upstream/health_discovery_service.cc}). Each session probes its outbound once per interval after the
 * previous answer, at most one probe in flight, and keeps its status (the consecutive failures included) in the
 * capability's own sink, never in the observation. Costs one session and one status per outbound.
 */
public final class ProbeSessions {

    private ProbeSessions() {}

    /**
     * Sessions for {@code outbounds} under {@code settings} ({@code schedule: per-outbound}); not started. They start
     * from the statuses {@code sink} holds, so a replacement with other intervals keeps each outbound's streak.
     *
     * @param name      names the sessions in log lines, e.g. {@code mesh witness w1}
     * @param settings  the probe URL (unless an outbound sets its own), intervals, deadline and thresholds; the
     *                  subject selector picks from {@code outbounds}
     * @param writer    the thread the sessions' state is confined to
     * @param prober    sends the probes
     * @param outbounds the outbounds to probe, read again at {@link Observer#outboundsChanged()}; on the writer
     * @param sink      receives and holds the statuses, on the writer
     * @param clock     wall clock of the statuses' times
     * @param random    source of the jitters
     */
    public static Observer perOutbound(
            String name,
            StandardObserverSettings settings,
            Scheduler writer,
            Prober prober,
            Supplier<List<Outbound>> outbounds,
            StatusSink sink,
            Clock clock,
            RandomGenerator random) {
        ObserverContext context = new ObserverContext(writer, prober, outbounds, result -> {}, sink);
        return new PerOutboundObserver(name, settings, context, clock, random);
    }
}
