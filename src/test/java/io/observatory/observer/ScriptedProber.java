package io.observatory.observer;

import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.probe.Prober;
import io.observatory.testing.FakeScheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A {@link Prober} for scheduling tests: records every probe with the scheduler time it was sent, and lets the test
 * complete it (success with an RTT, or failure) whenever it chooses.
 */
final class ScriptedProber implements Prober {

    private final FakeScheduler scheduler;
    private final List<Sent> sent = new ArrayList<>();

    ScriptedProber(FakeScheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public Mono<ProbeResult> probe(ProbeRequest request) {
        Sinks.One<ProbeResult> result = Sinks.one();
        Sent probe = new Sent(request, scheduler.nanoTime(), result);
        sent.add(probe);
        return result.asMono().doOnCancel(() -> probe.cancelled = true);
    }

    List<Sent> sent() {
        return sent;
    }

    /** Probes not yet answered, oldest first. */
    List<Sent> open() {
        return sent.stream().filter(s -> !s.answered && !s.cancelled).toList();
    }

    /** A probe the observer sent. */
    final class Sent {
        final ProbeRequest request;
        final long sentAtNanos;
        private final Sinks.One<ProbeResult> sink;
        boolean answered;
        boolean cancelled;

        Sent(ProbeRequest request, long sentAtNanos, Sinks.One<ProbeResult> sink) {
            this.request = request;
            this.sentAtNanos = sentAtNanos;
            this.sink = sink;
        }

        String tag() {
            return request.outbound().tag();
        }

        void succeed(long rttNanos) {
            respond(204, rttNanos);
        }

        /** Succeeds with the scheduler time since it was sent as its RTT: a prober whose own work takes no time. */
        void succeedOnTheWire() {
            succeed(scheduler.nanoTime() - sentAtNanos);
        }

        void respond(int httpStatus, long rttNanos) {
            answered = true;
            sink.tryEmitValue(new ProbeResult(
                    tag(), true, rttNanos, ProbePhases.NONE, httpStatus, Instant.EPOCH, Instant.EPOCH, null));
        }

        /** Fails as refused; its RTT is the time until it failed, the scheduler time since it was sent. */
        void fail(String reason) {
            fail(reason, scheduler.nanoTime() - sentAtNanos);
        }

        /** Fails as refused after {@code rttNanos} on the wire. */
        void fail(String reason, long rttNanos) {
            answered = true;
            sink.tryEmitValue(new ProbeResult(
                    tag(),
                    false,
                    rttNanos,
                    ProbePhases.NONE,
                    0,
                    Instant.EPOCH,
                    Instant.EPOCH,
                    new ProbeError(ProbeError.Kind.CONNECTION_REFUSED, ProbeError.Hop.TARGET, reason, null)));
        }
    }
}
