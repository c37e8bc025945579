package io.observatory.observer;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.BurstObserverSettings;
import io.observatory.config.Outbound;
import io.observatory.config.PingConfig;
import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealth;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeRequest;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.stats.HealthPingStats;
import io.observatory.stats.RttRing;
import io.observatory.testing.FakeScheduler;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class BurstObserverTest {

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final int SAMPLING = 3;
    private static final Duration CYCLE = INTERVAL.multipliedBy(SAMPLING);
    private static final URI DESTINATION = URI.create("http://probe.test/generate_204");
    private static final URI CONNECTIVITY = URI.create("http://connectivity.test/generate_204");

    private final FakeScheduler scheduler = new FakeScheduler();
    private final ScriptedProber prober = new ScriptedProber(scheduler);
    private final PublishedStatuses published = new PublishedStatuses(scheduler);
    private final List<Outbound> outbounds =
            new ArrayList<>(List.of(Outbound.direct("proxy_a"), Outbound.direct("proxy_b"), Outbound.direct("other")));

    private static BurstObserverSettings settings(
            List<String> selector, PingConfig ping, ActiveCheck check, OptionalDouble maxFailureRatio) {
        return new BurstObserverSettings(
                selector,
                ping,
                check.expectedStatus(),
                check.thresholds().healthyThreshold(),
                check.thresholds().unhealthyThreshold(),
                maxFailureRatio.isPresent() ? maxFailureRatio.getAsDouble() : null);
    }

    private BurstObserver observer(URI connectivity, String method) {
        return observer(
                connectivity,
                method,
                new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)),
                OptionalDouble.empty());
    }

    private BurstObserver observer(URI connectivity, String method, ActiveCheck check, OptionalDouble maxFailureRatio) {
        PingConfig ping = new PingConfig(
                DESTINATION.toString(),
                connectivity == null ? null : connectivity.toString(),
                INTERVAL,
                SAMPLING,
                Duration.ofSeconds(5),
                method);
        return new BurstObserver(
                settings(List.of("proxy_"), ping, check, maxFailureRatio),
                published.context(prober, () -> List.copyOf(outbounds)),
                new SplittableRandom(7));
    }

    private OutboundStatus status(String tag) {
        return published.status(tag);
    }

    private List<ScriptedProber.Sent> sentTo(String tag) {
        return prober.sent().stream().filter(s -> s.tag().equals(tag)).toList();
    }

    @Test
    void startWhenSelectedThenOneImmediateProbePerTagAndSamplingProbesAtRandomOffsetsWithinTheCycle() {
        observer(null, "HEAD").start();
        scheduler.runDue();
        assertThat(prober.sent()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_a", "proxy_b");

        scheduler.advance(CYCLE.minusNanos(1));

        for (String tag : List.of("proxy_a", "proxy_b")) {
            List<ScriptedProber.Sent> sent = sentTo(tag);
            assertThat(sent).hasSize(1 + SAMPLING);
            assertThat(sent.subList(1, sent.size()))
                    .allSatisfy(s -> assertThat(s.sentAtNanos).isBetween(0L, CYCLE.toNanos() - 1));
            assertThat(sent.stream().mapToLong(s -> s.sentAtNanos).distinct().count())
                    .isGreaterThan(1);
        }
        assertThat(sentTo("other")).isEmpty();
    }

    @Test
    void cycleWhenRepeatedThenEachCycleSendsSamplingProbesPerTag() {
        observer(null, "HEAD").start();
        scheduler.runDue();
        scheduler.advance(CYCLE.multipliedBy(3).minusNanos(1));

        assertThat(sentTo("proxy_a")).hasSize(1 + 3 * SAMPLING);
        for (int cycle = 0; cycle < 3; cycle++) {
            long from = CYCLE.toNanos() * cycle;
            long to = from + CYCLE.toNanos();
            assertThat(sentTo("proxy_a").stream().skip(1).filter(s -> s.sentAtNanos >= from && s.sentAtNanos < to))
                    .hasSize(SAMPLING);
        }
    }

    @Test
    void probeWhenMethodGetThenBodyIsReadAndTimeoutIsPingTimeout() {
        observer(null, "GET").start();
        scheduler.runDue();

        assertThat(prober.sent().get(0).request.method()).isEqualTo("GET");
        assertThat(prober.sent().get(0).request.readBody()).isTrue();
        assertThat(prober.sent().get(0).request.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(prober.sent().get(0).request.url()).isEqualTo(DESTINATION);
    }

    @Test
    void resultWhenItArrivesAfterTheNextCycleStartedThenRecordedUnlikeXrayWhichDropsIt() {
        observer(null, "HEAD").start();
        scheduler.runDue();
        scheduler.advance(CYCLE.minusNanos(1));
        ScriptedProber.Sent lastOfFirstCycle = sentTo("proxy_a").get(SAMPLING);

        scheduler.advance(Duration.ofNanos(1));
        lastOfFirstCycle.fail("timeout");
        scheduler.runDue();

        assertThat(published.current().get(0).healthPing().all())
                .as("healthping.go's doCheck stops reading its"
                        + " results when the next cycle cancels it; this observer keeps them")
                .isEqualTo(1);
    }

    @Test
    void resultsWhenSuccessesAndFailuresThenStatusCarriesXrayStatistics() {
        observer(null, "HEAD").start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).succeed(60_000_000);
        scheduler.advance(CYCLE.minusNanos(1));
        List<ScriptedProber.Sent> a = sentTo("proxy_a");
        a.get(1).succeed(140_000_000);
        a.get(2).fail("refused");
        scheduler.runDue();

        OutboundStatus status = published.current().get(0);
        assertThat(status.tag()).isEqualTo("proxy_a");
        assertThat(status.alive()).isTrue();
        assertThat(status.delayMillis()).isEqualTo(100);
        assertThat(status.lastErrorReason()).isEmpty();
        assertThat(status.lastSeen()).isNull();
        assertThat(status.healthPing())
                .isEqualTo(new HealthPingStats(3, 1, 40_000_000, 100_000_000, 140_000_000, 60_000_000));
        assertThat(published.current()).extracting(OutboundStatus::tag).containsExactly("proxy_a");
    }

    @Test
    void samplesWhenOlderThanTwoCyclesThenTheyExpireAndOutboundIsNotAlive() {
        observer(null, "HEAD").start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).succeed(60_000_000);
        scheduler.runDue();

        scheduler.advance(CYCLE.multipliedBy(2));
        assertThat(published.current().get(0).healthPing().all()).isEqualTo(1);

        scheduler.advance(Duration.ofNanos(1));
        OutboundStatus expired = published.current().get(0);
        assertThat(expired.healthPing()).isEqualTo(HealthPingStats.EMPTY);
        assertThat(expired.alive()).isFalse();
    }

    @Test
    void failureWhenConnectivityCheckFailsTooThenSampleDiscarded() {
        observer(CONNECTIVITY, "HEAD").start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).fail("timeout");
        scheduler.runDue();

        ScriptedProber.Sent check = prober.open().stream()
                .filter(s -> s.request.url().equals(CONNECTIVITY))
                .findFirst()
                .orElseThrow();
        assertThat(check.request.outbound().proxied()).isFalse();
        assertThat(check.request.client())
                .as("Go's default client, as ping.go's newDirectPingClient")
                .isEqualTo(ProbeRequest.Client.CONNECTIVITY_CHECK);
        assertThat(sentTo("proxy_a").get(0).request.client()).isEqualTo(ProbeRequest.Client.BURST_PING);
        check.fail("network unreachable");
        scheduler.runDue();

        assertThat(published.current()).isEmpty();
    }

    @Test
    void failureWhenConnectivityCheckSucceedsThenFailureRecorded() {
        observer(CONNECTIVITY, "HEAD").start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).fail("timeout");
        scheduler.runDue();
        prober.open().stream()
                .filter(s -> s.request.url().equals(CONNECTIVITY))
                .findFirst()
                .orElseThrow()
                .succeed(1_000_000);
        scheduler.runDue();

        OutboundStatus status = published.current().get(0);
        assertThat(status.alive()).isFalse();
        assertThat(status.delayMillis()).isZero();
        assertThat(status.healthPing()).isEqualTo(new HealthPingStats(1, 1, 0, 0, 0, 0));
    }

    @Test
    void failuresWhenNetworkStaysDownThenLoggedOncePerEpisode(CapturedOutput output) {
        observer(CONNECTIVITY, "HEAD").start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).fail("timeout");
        sentTo("proxy_b").get(0).fail("timeout");
        scheduler.runDue();
        prober.open().stream()
                .filter(s -> s.request.url().equals(CONNECTIVITY))
                .toList()
                .forEach(check -> check.fail("network unreachable"));
        scheduler.runDue();
        assertThat(output.getOut().split("network is down", -1)).hasSize(2);

        scheduler.advance(CYCLE.minusNanos(1));
        sentTo("proxy_a").get(1).fail("timeout");
        scheduler.runDue();
        prober.open().stream()
                .filter(s -> s.request.url().equals(CONNECTIVITY))
                .findFirst()
                .orElseThrow()
                .succeed(1_000_000);
        scheduler.runDue();

        assertThat(output.getOut().split("network is down", -1)).hasSize(2);
        assertThat(output.getOut().split("network is up again", -1)).hasSize(2);
    }

    @Test
    void statusWhenWindowChangesThenActiveStateFollowsWithDetailNamingTheLastFailureUntilASuccess() {
        observer(null, "HEAD").start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).fail("outbound proxy_a (direct): connection refused by 127.0.0.1:9");
        scheduler.runDue();
        OutboundStatus dead = status("proxy_a");
        scheduler.advance(CYCLE.minusNanos(1));
        sentTo("proxy_a").get(1).succeed(20_000_000);
        scheduler.runDue();
        OutboundStatus alive = status("proxy_a");

        assertThat(dead.active().state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(dead.activeDetail())
                .isEqualTo("1/1 samples failed; last failure: "
                        + "outbound proxy_a (direct): connection refused by 127.0.0.1:9");
        assertThat(alive.active().state()).isEqualTo(HealthState.HEALTHY);
        assertThat(alive.activeDetail()).isEqualTo("1/2 samples failed, average 20 ms");
    }

    @Test
    void resultWhenStatusNotExpectedThenFailedSampleWithoutConnectivityCheck() {
        ActiveCheck only204 = new ActiveCheck(ExpectedStatus.parse("204"), new ActiveHealthPolicy(1, 1));
        observer(CONNECTIVITY, "HEAD", only204, OptionalDouble.empty()).start();
        scheduler.runDue();

        sentTo("proxy_a").get(0).respond(403, 5_000_000);
        scheduler.runDue();

        assertThat(status("proxy_a").healthPing().fail()).isEqualTo(1);
        assertThat(status("proxy_a").alive()).isFalse();
        assertThat(status("proxy_a").activeDetail()).endsWith("unexpected HTTP status 403 (expected: 204)");
        assertThat(prober.sent()).noneMatch(s -> s.request.url().equals(CONNECTIVITY));
    }

    @Test
    void windowWhenFailureRatioAboveMaximumThenNotAliveDespiteSuccesses() {
        observer(
                        null,
                        "HEAD",
                        new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)),
                        OptionalDouble.of(0.5))
                .start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).succeed(10_000_000);
        scheduler.runDue();
        assertThat(status("proxy_a").alive()).isTrue();

        scheduler.advance(CYCLE.minusNanos(1));
        sentTo("proxy_a").get(1).fail("reset");
        scheduler.runDue();
        assertThat(status("proxy_a").alive()).as("1/2 failed is at the maximum").isTrue();
        sentTo("proxy_a").get(2).fail("reset");
        scheduler.runDue();

        assertThat(status("proxy_a").alive())
                .as("2/3 failed is above the maximum")
                .isFalse();
        assertThat(status("proxy_a").active().state()).isEqualTo(HealthState.UNHEALTHY);
    }

    @Test
    void windowWhenHealthyThresholdIsTwoThenAliveOnlyAfterTheSecondPassingEvaluation() {
        ActiveCheck check = new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(2, 1));
        observer(null, "HEAD", check, OptionalDouble.empty()).start();
        scheduler.runDue();
        sentTo("proxy_a").get(0).succeed(10_000_000);
        scheduler.runDue();
        OutboundStatus first = status("proxy_a");
        sentTo("proxy_b").get(0).succeed(10_000_000);
        scheduler.runDue();
        OutboundStatus afterOtherOutbound = status("proxy_a");

        scheduler.advance(CYCLE.minusNanos(1));
        sentTo("proxy_a").get(1).succeed(10_000_000);
        scheduler.runDue();

        assertThat(first.active().state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(afterOtherOutbound.active())
                .as("another outbound's sample is no evidence")
                .isEqualTo(first.active());
        assertThat(status("proxy_a").active().state()).isEqualTo(HealthState.HEALTHY);
        assertThat(status("proxy_a").alive()).isTrue();
    }

    @Test
    void cycleWhenTagDeselectedThenItsResultsAreRemovedAndItIsNoLongerProbed() {
        observer(null, "HEAD").start();
        scheduler.runDue();
        prober.open().forEach(p -> p.succeed(10_000_000));
        scheduler.runDue();
        assertThat(published.current()).extracting(OutboundStatus::tag).containsExactly("proxy_a", "proxy_b");

        outbounds.removeIf(o -> o.tag().equals("proxy_b"));
        scheduler.advance(CYCLE);
        int probesOfB = sentTo("proxy_b").size();
        scheduler.advance(CYCLE);

        assertThat(published.current()).extracting(OutboundStatus::tag).containsExactly("proxy_a");
        assertThat(sentTo("proxy_b")).hasSize(probesOfB);
    }

    @Test
    void outboundsChangedWhenTagAddedAndRemovedThenNewOneProbedAtOnceAndOldOneGone() {
        BurstObserver observer = observer(null, "HEAD");
        observer.start();
        scheduler.runDue();
        prober.open().forEach(p -> p.succeed(10_000_000));
        scheduler.runDue();

        outbounds.removeIf(o -> o.tag().equals("proxy_b"));
        outbounds.add(Outbound.direct("proxy_c"));
        observer.outboundsChanged();
        scheduler.runDue();

        assertThat(sentTo("proxy_c")).hasSize(1);
        assertThat(sentTo("proxy_c").get(0).sentAtNanos).isZero();
        assertThat(published.current()).extracting(OutboundStatus::tag).containsExactly("proxy_a");
    }

    @Test
    void startWhenCarriedOverStatusesThenShownUntilFirstSample() {
        OutboundStatus previous = new OutboundStatus(
                "proxy_a", true, 42, "", null, null, null, null, new ActiveHealth(HealthState.HEALTHY, 1, 0), "");
        PingConfig ping =
                new PingConfig(DESTINATION.toString(), null, INTERVAL, SAMPLING, Duration.ofSeconds(5), "HEAD");
        published.holding(List.of(previous));
        new BurstObserver(
                        settings(
                                List.of("proxy_"),
                                ping,
                                new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)),
                                OptionalDouble.empty()),
                        published.context(prober, () -> List.copyOf(outbounds)),
                        new SplittableRandom(3))
                .start();
        scheduler.runDue();
        sentTo("proxy_b").get(0).succeed(5_000_000);
        scheduler.runDue();
        assertThat(published.current())
                .extracting(OutboundStatus::tag, OutboundStatus::delayMillis)
                .containsExactly(Tuple.tuple("proxy_a", 42L), Tuple.tuple("proxy_b", 5L));

        sentTo("proxy_a").get(0).succeed(7_000_000);
        scheduler.runDue();

        assertThat(published.current().get(0).delayMillis()).isEqualTo(7);
        assertThat(published.current().get(0).healthPing().all()).isEqualTo(1);
    }

    @Test
    void startWhenRestoredSamplesThenTheWindowFromThemMarkedRestoredUntilASampleOfItsOwn() {
        Instant measured = Instant.parse("2026-12-01T10:00:00Z");
        OutboundStatus restored = new OutboundStatus(
                        "proxy_a",
                        true,
                        20,
                        "",
                        null,
                        null,
                        new HealthPingStats(2, 1, 10_000_000, 20_000_000, 20_000_000, 20_000_000),
                        null,
                        new ActiveHealth(HealthState.HEALTHY, 1, 0),
                        "1/2 samples failed")
                .asRestored(measured);
        PingConfig ping =
                new PingConfig(DESTINATION.toString(), null, INTERVAL, SAMPLING, Duration.ofSeconds(5), "HEAD");
        scheduler.advance(CYCLE);
        long now = scheduler.nanoTime();
        published.holding(List.of(restored));
        new BurstObserver(
                        settings(
                                List.of("proxy_"),
                                ping,
                                new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)),
                                OptionalDouble.empty()),
                        published.context(prober, () -> List.copyOf(outbounds)),
                        new SplittableRandom(3),
                        Map.of(
                                "proxy_a",
                                List.of(
                                        new RttRing.Sample(now - 2_000_000_000L, false, 0),
                                        new RttRing.Sample(now - 1_000_000_000L, true, 20_000_000))))
                .start();
        scheduler.runDue();
        sentTo("proxy_b").get(0).succeed(5_000_000);
        scheduler.runDue();

        assertThat(published.current().get(0)).isEqualTo(restored);

        sentTo("proxy_a").get(0).succeed(30_000_000);
        scheduler.runDue();

        OutboundStatus fresh = published.current().get(0);
        assertThat(fresh.restoredFrom()).isNull();
        assertThat(fresh.healthPing())
                .as("the restored samples and this process's")
                .isEqualTo(new HealthPingStats(3, 1, 5_000_000, 25_000_000, 30_000_000, 20_000_000));
    }

    @Test
    void stopWhenProbesPendingThenThoseAreCancelledAndNothingMoreIsSent() {
        BurstObserver observer = observer(null, "HEAD");
        observer.start();
        scheduler.runDue();
        observer.stop();
        scheduler.advance(CYCLE.multipliedBy(2));

        assertThat(prober.sent()).hasSize(2);
        assertThat(prober.sent()).allSatisfy(s -> assertThat(s.cancelled).isTrue());
        assertThat(scheduler.pendingTasks()).isZero();
    }

    @Test
    void startWhenSelectorEmptyThenNothingRuns() {
        PingConfig ping =
                new PingConfig(DESTINATION.toString(), null, INTERVAL, SAMPLING, Duration.ofSeconds(5), "HEAD");
        new BurstObserver(
                        settings(
                                List.of(),
                                ping,
                                new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)),
                                OptionalDouble.empty()),
                        published.context(prober, () -> outbounds),
                        new SplittableRandom(1))
                .start();
        scheduler.advance(CYCLE.multipliedBy(3));

        assertThat(prober.sent()).isEmpty();
        assertThat(scheduler.pendingTasks()).isZero();
    }
}
