package io.observatory.observer;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.health.ExpectedStatus;
import io.observatory.probe.ProbeRequest;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StandardObserverTest {

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final URI PROBE_URL = URI.create("http://probe.test/generate_204");

    private final FakeScheduler scheduler = new FakeScheduler();
    private final ScriptedProber prober = new ScriptedProber(scheduler);
    private final PublishedStatuses published = new PublishedStatuses(scheduler);
    private final List<Outbound> outbounds = new ArrayList<>(List.of(
            Outbound.direct("proxy_b"),
            Outbound.direct("proxy_a"),
            Outbound.direct("other"),
            Outbound.direct("proxy_c")));

    private StandardObserver observer(boolean concurrent, List<String> selector) {
        return new StandardObserver(
                Configs.xrayStandard(selector, PROBE_URL.toString(), INTERVAL, concurrent, ExpectedStatus.ANY, 1, 1),
                published.context(prober, () -> List.copyOf(outbounds)),
                scheduler.clock());
    }

    @Test
    void sequentialWhenStartedThenProbesSortedTagsOneIntervalApartAfterEachResult() {
        observer(false, List.of("proxy_")).start();
        scheduler.runDue();
        assertThat(prober.sent()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_a");

        scheduler.advance(Duration.ofMillis(300));
        prober.open().get(0).succeed(Duration.ofMillis(300).toNanos());
        scheduler.runDue();
        scheduler.advance(INTERVAL.minusNanos(1));
        assertThat(prober.sent()).hasSize(1);

        scheduler.advance(Duration.ofNanos(1));
        assertThat(prober.sent()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_a", "proxy_b");
        assertThat(prober.sent().get(1).sentAtNanos)
                .isEqualTo(Duration.ofMillis(10_300).toNanos());
    }

    @Test
    void probeWhenStatusNotExpectedThenOutboundDeadWithReasonNamingTheStatus() {
        new StandardObserver(
                        Configs.xrayStandard(
                                List.of("proxy_a"),
                                PROBE_URL.toString(),
                                INTERVAL,
                                false,
                                ExpectedStatus.parse("200-299"),
                                1,
                                1),
                        published.context(prober, () -> List.copyOf(outbounds)),
                        scheduler.clock())
                .start();
        scheduler.runDue();

        prober.open().get(0).respond(302, 1_000_000);
        scheduler.runDue();

        OutboundStatus status = published.current().get(0);
        assertThat(status.alive()).isFalse();
        assertThat(status.lastErrorReason())
                .isEqualTo("outbound proxy_a: unexpected HTTP status 302 (expected: 200-299)");
    }

    @Test
    void sequentialWhenRoundEndsThenNextRoundRereadsSelection() {
        observer(false, List.of("proxy_")).start();
        scheduler.runDue();
        for (int i = 0; i < 3; i++) {
            prober.open().get(0).succeed(1_000_000);
            scheduler.runDue();
            if (i == 1) {
                outbounds.add(Outbound.direct("proxy_0"));
            }
            scheduler.advance(INTERVAL);
        }

        assertThat(prober.sent())
                .extracting(ScriptedProber.Sent::tag)
                .containsExactly("proxy_a", "proxy_b", "proxy_c", "proxy_0");
    }

    @Test
    void concurrentWhenStartedThenAllProbedAtOnceAndNextRoundAnIntervalAfterTheLastResult() {
        observer(true, List.of("proxy_")).start();
        scheduler.runDue();
        assertThat(prober.sent()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_a", "proxy_b", "proxy_c");

        prober.open().get(0).succeed(1_000_000);
        prober.open().get(0).succeed(1_000_000);
        scheduler.advance(Duration.ofSeconds(2));
        prober.open().get(0).fail("refused");
        scheduler.runDue();
        scheduler.advance(INTERVAL.minusNanos(1));
        assertThat(prober.sent()).hasSize(3);

        scheduler.advance(Duration.ofNanos(1));
        assertThat(prober.sent()).hasSize(6);
        assertThat(prober.sent().get(3).sentAtNanos)
                .isEqualTo(Duration.ofSeconds(12).toNanos());
    }

    @Test
    void resultWhenSuccessThenAliveWithDelayAndBothTimestamps() {
        observer(true, List.of("proxy_a")).start();
        scheduler.runDue();
        scheduler.advance(Duration.ofSeconds(3));
        prober.open().get(0).succeed(Duration.ofNanos(42_999_999).toNanos());
        scheduler.runDue();

        OutboundStatus status = published.current().get(0);
        Instant now = scheduler.clock().instant();
        assertThat(status.alive()).isTrue();
        assertThat(status.delayMillis()).isEqualTo(42);
        assertThat(status.lastErrorReason()).isEmpty();
        assertThat(status.lastSeen()).isEqualTo(now);
        assertThat(status.lastTry()).isEqualTo(now);
        assertThat(status.lastProbe().httpStatus()).isEqualTo(204);
    }

    @Test
    void resultWhenFailureAfterSuccessThenDeadDelayReasonAndLastSeenKept() {
        observer(true, List.of("proxy_a")).start();
        scheduler.runDue();
        prober.open().get(0).succeed(5_000_000);
        scheduler.runDue();
        Instant seen = scheduler.clock().instant();
        scheduler.advance(INTERVAL);
        scheduler.advance(Duration.ofSeconds(1));
        prober.open().get(0).fail("connection refused by 127.0.0.1:1");
        scheduler.runDue();

        OutboundStatus status = published.current().get(0);
        assertThat(status.alive()).isFalse();
        assertThat(status.delayMillis()).isEqualTo(99_999_999L);
        assertThat(status.lastErrorReason()).isEqualTo("connection refused by 127.0.0.1:1");
        assertThat(status.lastSeen()).isEqualTo(seen);
        assertThat(status.lastTry()).isEqualTo(seen.plusSeconds(11));
    }

    @Test
    void roundWhenOutboundDeselectedThenItsStatusIsRemoved() {
        observer(true, List.of("proxy_")).start();
        scheduler.runDue();
        prober.open().forEach(p -> p.succeed(1_000_000));
        scheduler.runDue();
        assertThat(published.current())
                .extracting(OutboundStatus::tag)
                .containsExactly("proxy_a", "proxy_b", "proxy_c");

        outbounds.removeIf(o -> o.tag().equals("proxy_b"));
        scheduler.advance(INTERVAL);

        assertThat(published.current()).extracting(OutboundStatus::tag).containsExactly("proxy_a", "proxy_c");
    }

    @Test
    void outboundsChangedWhenProbeOfRemovedOutboundStillInFlightThenItsResultIsDropped() {
        StandardObserver observer = observer(false, List.of("proxy_"));
        observer.start();
        scheduler.runDue();
        prober.open().get(0).succeed(1_000_000);
        scheduler.runDue();
        scheduler.advance(INTERVAL);
        assertThat(prober.open()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_b");

        outbounds.removeIf(o -> o.tag().equals("proxy_b"));
        observer.outboundsChanged();
        scheduler.runDue();
        prober.open().get(0).succeed(1_000_000);
        scheduler.runDue();

        assertThat(published.current()).extracting(OutboundStatus::tag).containsExactly("proxy_a");
    }

    @Test
    void outboundsChangedWhenOutboundRemovedThenItsStatusGoesAtOnce() {
        StandardObserver observer = observer(true, List.of("proxy_"));
        observer.start();
        scheduler.runDue();
        prober.open().forEach(p -> p.succeed(1_000_000));
        scheduler.runDue();

        outbounds.removeIf(o -> o.tag().equals("proxy_c"));
        observer.outboundsChanged();
        scheduler.runDue();

        assertThat(published.current()).extracting(OutboundStatus::tag).containsExactly("proxy_a", "proxy_b");
    }

    @Test
    void startWhenSelectorEmptyThenNothingRuns() {
        observer(false, List.of()).start();
        scheduler.advance(Duration.ofMinutes(5));

        assertThat(prober.sent()).isEmpty();
        assertThat(scheduler.pendingTasks()).isZero();
        assertThat(published.current()).isEmpty();
    }

    @Test
    void stopWhenProbeInFlightThenProbeCancelledAndNoFurtherRound() {
        StandardObserver observer = observer(true, List.of("proxy_a"));
        observer.start();
        scheduler.runDue();
        observer.stop();
        scheduler.advance(Duration.ofMinutes(1));

        assertThat(prober.sent()).hasSize(1);
        assertThat(prober.sent().get(0).cancelled).isTrue();
        assertThat(scheduler.pendingTasks()).isZero();
    }

    @Test
    void probeWhenOutboundHasOwnProbeUrlThenItIsUsed() {
        outbounds.add(new Outbound(
                "proxy_own", io.observatory.config.Protocol.DIRECT, null, null, null, null, "http://own.test/health"));
        observer(true, List.of("proxy_own")).start();
        scheduler.runDue();

        assertThat(prober.sent().get(0).request.url()).isEqualTo(URI.create("http://own.test/health"));
        assertThat(prober.sent().get(0).request.method()).isEqualTo("GET");
        assertThat(prober.sent().get(0).request.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(prober.sent().get(0).request.readBody()).isFalse();
        assertThat(prober.sent().get(0).request.client()).isEqualTo(ProbeRequest.Client.STANDARD_OBSERVER);
    }
}
