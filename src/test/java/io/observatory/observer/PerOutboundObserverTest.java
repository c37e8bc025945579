package io.observatory.observer;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.StandardObserverSettings;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.HealthState;
import io.observatory.testing.FakeScheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The per-outbound schedule on fake time: each outbound's own session, Envoy's intervals while a transition is
 * pending, jitter, selection changes and stop. Times are milliseconds since the observer started.
 */
class PerOutboundObserverTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration UNHEALTHY = Duration.ofSeconds(3);
    private static final Duration UNHEALTHY_EDGE = Duration.ofMillis(250);
    private static final Duration HEALTHY_EDGE = Duration.ofMillis(500);
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final FakeScheduler scheduler = new FakeScheduler();
    private final ScriptedProber prober = new ScriptedProber(scheduler);
    private final PublishedStatuses published = new PublishedStatuses(scheduler);
    private final Shares random = new Shares();
    private final List<Outbound> outbounds = new ArrayList<>(List.of(
            Outbound.direct("proxy_a"),
            Outbound.direct("proxy_b"),
            Outbound.direct("proxy_c"),
            Outbound.direct("other")));
    private PerOutboundObserver observer;

    private static StandardObserverSettings settings(
            int healthyThreshold,
            int unhealthyThreshold,
            Duration initialJitter,
            Duration intervalJitter,
            @Nullable Duration unhealthyInterval,
            @Nullable Duration unhealthyEdge,
            @Nullable Duration healthyEdge) {
        return new StandardObserverSettings(
                List.of("proxy_"),
                "http://probe.test/generate_204",
                INTERVAL,
                false,
                ExpectedStatus.ANY,
                healthyThreshold,
                unhealthyThreshold,
                StandardObserverSettings.Schedule.PER_OUTBOUND,
                TIMEOUT,
                null,
                initialJitter,
                intervalJitter,
                unhealthyInterval,
                unhealthyEdge,
                healthyEdge);
    }

    /** Thresholds 2/3 with distinct intervals, no jitter. */
    private static StandardObserverSettings envoyLike() {
        return settings(2, 3, Duration.ZERO, Duration.ZERO, UNHEALTHY, UNHEALTHY_EDGE, HEALTHY_EDGE);
    }

    private void start(StandardObserverSettings settings) {
        observer = new PerOutboundObserver(
                "standard observer",
                settings,
                published.context(prober, () -> List.copyOf(outbounds)),
                scheduler.clock(),
                random);
        observer.start();
        scheduler.runDue();
    }

    private static long millis(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }

    /** The send times of {@code tag}'s probes, in milliseconds. */
    private List<Long> sentAt(String tag) {
        return prober.sent().stream()
                .filter(sent -> sent.tag().equals(tag))
                .map(sent -> millis(sent.sentAtNanos))
                .toList();
    }

    private ScriptedProber.Sent open(String tag) {
        return prober.open().stream()
                .filter(sent -> sent.tag().equals(tag))
                .findFirst()
                .orElseThrow();
    }

    /** Answers {@code tag}'s open probe, as a success or a refusal, and lets the writer handle it. */
    private void answer(String tag, boolean success) {
        if (success) {
            open(tag).succeedOnTheWire();
        } else {
            open(tag).fail("outbound " + tag + ": connection refused");
        }
        scheduler.runDue();
    }

    @Test
    void startWhenInitialJitterThenEachFirstProbeAfterItsRandomShareWithTheObserversDeadline() {
        random.next(0.0, 0.4, 0.8);
        start(settings(1, 1, INTERVAL, Duration.ZERO, null, null, null));

        scheduler.advance(Duration.ofMillis(999));

        assertThat(prober.sent())
                .extracting(ScriptedProber.Sent::tag)
                .containsExactlyInAnyOrder("proxy_a", "proxy_b", "proxy_c");
        assertThat(prober.sent())
                .extracting(sent -> millis(sent.sentAtNanos))
                .containsExactlyInAnyOrder(0L, 400L, 800L);
        assertThat(prober.sent())
                .allSatisfy(sent -> assertThat(sent.request.timeout()).isEqualTo(TIMEOUT));
    }

    @Test
    void probeWhenNeighbourBlackHoledThenOthersKeepTheirInterval() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));

        for (int second = 0; second < 5; second++) {
            answer("proxy_b", true);
            answer("proxy_c", true);
            scheduler.advance(INTERVAL);
        }

        assertThat(sentAt("proxy_a"))
                .as("black-holed: one probe in flight, never answered")
                .containsExactly(0L);
        assertThat(sentAt("proxy_b")).containsExactly(0L, 1_000L, 2_000L, 3_000L, 4_000L, 5_000L);
        assertThat(sentAt("proxy_c")).containsExactly(0L, 1_000L, 2_000L, 3_000L, 4_000L, 5_000L);
    }

    @Test
    void probeWhenTransitionPendingThenEdgeIntervalsAndUnhealthyIntervalWhileDown() {
        start(envoyLike());
        List<String> states = new ArrayList<>();
        boolean[] script = {true, true, false, false, false, false, true, true, true};
        for (boolean success : script) {
            answer("proxy_a", success);
            states.add(published.status("proxy_a").active().state().name());
            scheduler.advanceToNextTask();
        }

        List<Long> sent = sentAt("proxy_a");
        List<Long> waits = new ArrayList<>();
        for (int i = 1; i < sent.size(); i++) {
            waits.add(sent.get(i) - sent.get(i - 1));
        }
        assertThat(states)
                .containsExactly(
                        "UNKNOWN",
                        "HEALTHY",
                        "HEALTHY",
                        "HEALTHY",
                        "UNHEALTHY",
                        "UNHEALTHY",
                        "UNHEALTHY",
                        "HEALTHY",
                        "HEALTHY");
        // Each wait follows the state and run after the probe before it (answered at once, so no probe time).
        assertThat(waits)
                .containsExactly(
                        500L, // unknown, 1 success of 2: healthy edge
                        1_000L, // healthy: interval
                        250L, // healthy, 1 failure of 3: unhealthy edge
                        250L, // 2 failures of 3: unhealthy edge
                        3_000L, // unhealthy: unhealthy interval
                        3_000L, // still unhealthy
                        500L, // unhealthy, 1 success of 2: healthy edge
                        1_000L, // healthy again: interval
                        1_000L); // still healthy
    }

    @Test
    void probeWhenAnswerTakesTimeThenNextDueAnIntervalAfterTheAnswer() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));

        scheduler.advance(Duration.ofMillis(1_500));
        answer("proxy_a", true);
        scheduler.advance(INTERVAL);

        assertThat(sentAt("proxy_a")).containsExactly(0L, 2_500L);
    }

    @Test
    void probeWhenTheProbersOwnWorkTakesTimeThenTheIntervalStillRunsFromTheAnswerOnTheWire() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));

        scheduler.advance(Duration.ofMillis(1_003));
        // proxy_a: 1 s on the wire and 3 ms of the client's own work; proxy_b fails after 998 ms and 5 ms (the most
        // taken for the client's own work).
        open("proxy_a").succeed(Duration.ofSeconds(1).toNanos());
        open("proxy_b")
                .fail(
                        "outbound proxy_b: connection refused",
                        Duration.ofMillis(998).toNanos());
        scheduler.runDue();
        scheduler.advance(Duration.ofMillis(998));

        assertThat(sentAt("proxy_a"))
                .as("an interval after the answer, 1 s after the probe was sent")
                .containsExactly(0L, 2_000L);
        assertThat(sentAt("proxy_b")).as("an interval after the failure").containsExactly(0L, 1_998L);
    }

    @Test
    void probeWhenItsResultArrivesLongAfterItsRttThenItWaitsItsIntervalLessAtMostTheClientsOwnWork() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));

        // 1 s on the wire, but the result reaches the writer 0.5 s later (it waited for a probe slot): not due at once.
        scheduler.advance(Duration.ofMillis(1_500));
        open("proxy_a").succeed(Duration.ofSeconds(1).toNanos());
        scheduler.runDue();
        scheduler.advance(Duration.ofMillis(994));
        assertThat(sentAt("proxy_a")).containsExactly(0L);

        scheduler.advance(Duration.ofMillis(1));
        assertThat(sentAt("proxy_a"))
                .as(
                        "the interval from the result, less %d ms",
                        Duration.ofNanos(PerOutboundObserver.CLIENT_WORK_NANOS).toMillis())
                .containsExactly(0L, 2_495L);
    }

    @Test
    void probeWhenIntervalJitterThenEachWaitLengthenedByItsShare() {
        start(settings(1, 1, Duration.ZERO, Duration.ofMillis(200), null, null, null));
        random.next(0.5);
        answer("proxy_a", true);
        scheduler.advance(Duration.ofMillis(1_099));
        assertThat(sentAt("proxy_a")).containsExactly(0L);

        scheduler.advance(Duration.ofMillis(1));
        random.next(0.25);
        answer("proxy_a", true);
        scheduler.advance(Duration.ofMillis(1_050));

        assertThat(sentAt("proxy_a")).containsExactly(0L, 1_100L, 2_150L);
    }

    @Test
    void probeWhenTheWaitIsGosLargestDurationThenTheNextProbeIsNeverDueInsteadOfAtOnce() {
        Duration goMaximum = Duration.ofNanos(Long.MAX_VALUE);
        start(settings(1, 1, Duration.ZERO, goMaximum, goMaximum, null, null));
        scheduler.advance(Duration.ofSeconds(1));

        random.next(0.9999999999);
        answer("proxy_a", true);
        random.next(0.0);
        answer("proxy_b", false);
        scheduler.advance(Duration.ofDays(1));

        assertThat(sentAt("proxy_a"))
                .as("interval 1s plus nearly Go's largest jitter: beyond the ticker")
                .containsExactly(0L);
        assertThat(sentAt("proxy_b"))
                .as("unhealthy: Go's largest interval plus jitter")
                .containsExactly(0L);
    }

    @Test
    void outboundsChangedWhenDeselectedInFlightThenResultIgnoredAndStatusGone() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));
        answer("proxy_a", true);
        answer("proxy_b", true);
        answer("proxy_c", true);
        scheduler.advance(INTERVAL);

        outbounds.removeIf(outbound -> outbound.tag().equals("proxy_b"));
        observer.outboundsChanged();
        scheduler.runDue();
        answer("proxy_b", true);
        scheduler.advance(INTERVAL.multipliedBy(3));

        assertThat(published.current()).extracting(status -> status.tag()).containsExactly("proxy_a", "proxy_c");
        assertThat(sentAt("proxy_b")).containsExactly(0L, 1_000L);
    }

    @Test
    void outboundsChangedWhenRemovedAndAddedAgainWhileItsProbeIsInFlightThenTheOldResultIsNotRecorded() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));
        ScriptedProber.Sent inFlight = open("proxy_a");
        outbounds.removeIf(outbound -> outbound.tag().equals("proxy_a"));
        observer.outboundsChanged();
        scheduler.runDue();
        outbounds.add(Outbound.direct("proxy_a"));
        observer.outboundsChanged();
        scheduler.runDue();

        inFlight.fail("outbound proxy_a: connection refused");
        scheduler.runDue();

        assertThat(published.current()).extracting(status -> status.tag()).doesNotContain("proxy_a");
        assertThat(sentAt("proxy_a")).as("the new session probes at once").containsExactly(0L, 0L);
        answer("proxy_a", true);
        assertThat(published.status("proxy_a").active().state()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void outboundsChangedWhenAddedWithoutInitialJitterThenItsOwnSessionStartsAtOnce() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));
        scheduler.advance(Duration.ofMillis(300));

        outbounds.add(Outbound.direct("proxy_d"));
        observer.outboundsChanged();
        scheduler.runDue();
        answer("proxy_d", false);

        assertThat(sentAt("proxy_d")).containsExactly(300L);
        assertThat(published.status("proxy_d").active().state()).isEqualTo(HealthState.UNHEALTHY);
    }

    @Test
    void stopWhenProbesScheduledAndInFlightThenNothingMoreSentOrPublished() {
        start(settings(1, 1, Duration.ZERO, Duration.ZERO, null, null, null));
        answer("proxy_a", true);
        int publications = published.publications();

        observer.stop();
        scheduler.runDue();
        scheduler.advance(INTERVAL.multipliedBy(5));

        assertThat(sentAt("proxy_a")).containsExactly(0L);
        assertThat(prober.open()).isEmpty();
        assertThat(published.publications()).isEqualTo(publications);
        assertThat(scheduler.pendingTasks()).isZero();
    }

    /** Answers {@link #nextLong(long)} with scripted shares of the bound, 0 when the script is empty. */
    private static final class Shares implements RandomGenerator {
        private final Deque<Double> script = new ArrayDeque<>();

        void next(Double... shares) {
            script.addAll(List.of(shares));
        }

        @Override
        public long nextLong(long bound) {
            Double share = script.poll();
            return share == null ? 0 : (long) (share * bound);
        }

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("only bounded draws are scripted");
        }
    }
}
