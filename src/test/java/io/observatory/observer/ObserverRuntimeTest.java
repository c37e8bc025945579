package io.observatory.observer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.observatory.config.ObservatoryConfig;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.StatusSink;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The reload state machine: which configuration change keeps, tells or replaces the observer, on fake time. */
@ExtendWith(OutputCaptureExtension.class)
class ObserverRuntimeTest {

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final String[] CONCURRENT = {
        "standard.subject-selector=proxy_",
        "standard.probe-url=http://probe.test/generate_204",
        "standard.probe-interval=10s",
        "standard.enable-concurrency=true"
    };

    private final FakeScheduler writer = new FakeScheduler();
    private final ScriptedProber prober = new ScriptedProber(writer);
    private final List<ProbeResult> recorded = new ArrayList<>();
    // What the sink holds, by tag, built from the published changes.
    private final Map<String, OutboundStatus> holds = new TreeMap<>();
    private List<OutboundStatus> published = List.of();

    private ObserverRuntime runtime(ObservatoryConfig initial) {
        return new ObserverRuntime(
                initial, prober, writer, writer.clock(), new SplittableRandom(7), recorded::add, new Holding());
    }

    /** The sink: holds what it was handed, on the writer. */
    private final class Holding implements StatusSink {

        @Override
        public void changed(Collection<OutboundStatus> changed, Collection<String> gone) {
            assertThat(writer.inSchedulerThread())
                    .as("statuses published on the writer")
                    .isTrue();
            gone.forEach(holds::remove);
            changed.forEach(status -> holds.put(status.tag(), status));
            published = List.copyOf(holds.values());
        }

        @Override
        public @Nullable OutboundStatus held(String tag) {
            return holds.get(tag);
        }

        @Override
        public List<OutboundStatus> held() {
            return List.copyOf(holds.values());
        }
    }

    private static ObservatoryConfig config(List<String> tags, String... properties) {
        return Configs.direct(tags, properties);
    }

    private void reload(ObserverRuntime runtime, ObservatoryConfig next) {
        writer.execute(() -> runtime.reconfigure(next));
        writer.runDue();
    }

    /** Starts on both outbounds and answers both first probes: alive, 5 ms. */
    private ObserverRuntime startedWithBothAlive() {
        ObserverRuntime runtime = runtime(config(List.of("proxy_a", "proxy_b"), CONCURRENT));
        runtime.start();
        writer.runDue();
        prober.open().forEach(probe -> probe.succeed(Duration.ofMillis(5).toNanos()));
        writer.runDue();
        return runtime;
    }

    @Test
    void startWhenStandardConfiguredThenProbesBeginOnTheWriterNotOnTheCaller() {
        ObserverRuntime runtime = runtime(config(List.of("proxy_a", "other"), CONCURRENT));

        runtime.start();
        assertThat(prober.sent()).isEmpty();
        writer.runDue();

        assertThat(prober.sent()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_a");
    }

    @Test
    void reloadWhenScheduleBecomesPerOutboundThenStatusesKeptAndABlackHoleDelaysNoOtherOutbound() {
        ObserverRuntime runtime = startedWithBothAlive();
        int sentBefore = prober.sent().size();
        reload(
                runtime,
                config(
                        List.of("proxy_a", "proxy_b"),
                        "standard.subject-selector=proxy_",
                        "standard.probe-url=http://probe.test/generate_204",
                        "standard.probe-interval=10s",
                        "standard.schedule=per-outbound",
                        "standard.initial-jitter=0",
                        "standard.timeout=2s"));
        assertThat(published).extracting(OutboundStatus::tag).containsExactly("proxy_a", "proxy_b");

        for (int round = 0; round < 3; round++) {
            prober.open().stream()
                    .filter(probe -> probe.tag().equals("proxy_b"))
                    .forEach(ScriptedProber.Sent::succeedOnTheWire);
            writer.runDue();
            writer.advance(INTERVAL);
        }

        List<ScriptedProber.Sent> sent =
                prober.sent().subList(sentBefore, prober.sent().size());
        assertThat(sent)
                .extracting(ScriptedProber.Sent::tag)
                .containsExactly("proxy_a", "proxy_b", "proxy_b", "proxy_b", "proxy_b");
        assertThat(sent).allSatisfy(probe -> assertThat(probe.request.timeout()).isEqualTo(Duration.ofSeconds(2)));
    }

    @Test
    void reloadWhenOutboundRemovedThenItsStatusGoesAtOnceAndTheObserverKeepsItsSchedule() {
        ObserverRuntime runtime = startedWithBothAlive();
        assertThat(published).extracting(OutboundStatus::tag).containsExactly("proxy_a", "proxy_b");

        reload(runtime, config(List.of("proxy_a"), CONCURRENT));

        assertThat(published)
                .extracting(OutboundStatus::tag, OutboundStatus::alive)
                .containsExactly(tuple("proxy_a", true));
        assertThat(prober.sent()).hasSize(2);
        writer.advance(INTERVAL);
        assertThat(prober.sent()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_a", "proxy_b", "proxy_a");
    }

    @Test
    void reloadWhenOutboundAddedThenTheRunningObserverProbesItNextRound() {
        ObserverRuntime runtime = startedWithBothAlive();

        reload(runtime, config(List.of("proxy_a", "proxy_b", "proxy_c"), CONCURRENT));
        assertThat(prober.sent()).hasSize(2);
        writer.advance(INTERVAL);

        assertThat(prober.sent().subList(2, prober.sent().size()))
                .extracting(ScriptedProber.Sent::tag)
                .containsExactly("proxy_a", "proxy_b", "proxy_c");
    }

    @Test
    void reloadWhenObserverSettingsChangeThenSuccessorStartsFromThePredecessorsStatuses() {
        ObserverRuntime runtime = startedWithBothAlive();
        writer.advance(INTERVAL);
        prober.open().get(0).succeed(Duration.ofMillis(7).toNanos());
        writer.runDue();
        ScriptedProber.Sent inFlight = prober.open().get(0);
        assertThat(inFlight.tag()).isEqualTo("proxy_b");

        List<String> slower = new ArrayList<>(List.of(CONCURRENT));
        slower.set(2, "standard.probe-interval=20s");
        reload(runtime, config(List.of("proxy_a", "proxy_b"), slower.toArray(String[]::new)));

        assertThat(inFlight.cancelled)
                .as("the predecessor's probe in flight is cancelled")
                .isTrue();
        assertThat(prober.open()).extracting(ScriptedProber.Sent::tag).containsExactly("proxy_a", "proxy_b");
        prober.open().get(0).succeed(Duration.ofMillis(9).toNanos());
        writer.runDue();
        assertThat(published)
                .extracting(OutboundStatus::tag, OutboundStatus::alive, OutboundStatus::delayMillis)
                .as("proxy_b keeps the predecessor's status until the successor probes it")
                .containsExactly(tuple("proxy_a", true, 9L), tuple("proxy_b", true, 5L));
        prober.open().get(0).succeed(Duration.ofMillis(9).toNanos());
        writer.runDue();
        writer.advance(Duration.ofSeconds(20).minusNanos(1));
        assertThat(prober.open()).as("the successor waits its own interval").isEmpty();
        writer.advance(Duration.ofNanos(1));
        assertThat(prober.open()).hasSize(2);
    }

    @Test
    void reloadWhenStandardReplacedByBurstThenBurstShowsTheStatusesUntilItsOwnSamples() {
        ObserverRuntime runtime = startedWithBothAlive();

        reload(
                runtime,
                config(
                        List.of("proxy_a", "proxy_b"),
                        "burst.subject-selector=proxy_",
                        "burst.ping-config.destination=http://probe.test/generate_204",
                        "burst.ping-config.interval=10s",
                        "burst.ping-config.sampling=2"));

        assertThat(prober.open())
                .extracting(ScriptedProber.Sent::tag, probe -> probe.request.method())
                .containsExactly(tuple("proxy_a", "HEAD"), tuple("proxy_b", "HEAD"));
        prober.open().get(0).succeed(Duration.ofMillis(11).toNanos());
        writer.runDue();

        assertThat(published)
                .extracting(OutboundStatus::tag, OutboundStatus::alive, OutboundStatus::delayMillis)
                .as("proxy_b keeps the standard observer's status until its first sample")
                .containsExactly(tuple("proxy_a", true, 11L), tuple("proxy_b", true, 5L));
    }

    @Test
    void reloadWhenObserverRemovedThenStatusesEmptyAndProbingStops() {
        ObserverRuntime runtime = startedWithBothAlive();

        reload(runtime, config(List.of("proxy_a", "proxy_b")));
        writer.advance(INTERVAL.multipliedBy(3));

        assertThat(published).isEmpty();
        assertThat(prober.sent()).hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"standard.schedule=xray", "standard.schedule=per-outbound", "burst"})
    void reloadWhenTheSubjectSelectorIsEmptiedThenStatusesGoAtOnceAndProbingStops(String observer) {
        ObserverRuntime runtime = startedWithBothAlive();
        String[] selectingNothing = observer.equals("burst")
                ? new String[] {
                    "burst.ping-config.destination=http://probe.test/generate_204", "burst.ping-config.interval=10s"
                }
                : new String[] {
                    "standard.probe-url=http://probe.test/generate_204", "standard.probe-interval=10s", observer
                };

        reload(runtime, config(List.of("proxy_a", "proxy_b"), selectingNothing));
        writer.advance(INTERVAL.multipliedBy(3));

        assertThat(published)
                .as("no longer observed: nothing to show, as after removing the observer")
                .isEmpty();
        assertThat(prober.sent()).hasSize(2);
    }

    @Test
    void reloadWhenThousandsOfOutboundsRenamedThenEachLogLineNamesTwentyAndCountsTheRest(CapturedOutput output) {
        // 10,000 renamed outbounds made two lines of 120 KB per reload, every tag listed: container runtimes split a
        // line at 16 KB, which breaks a JSON (ECS) record in two.
        List<String> before = java.util.stream.IntStream.range(0, 1_000)
                .mapToObj(i -> String.format("proxy_a%04d", i))
                .toList();
        List<String> after =
                before.stream().map(tag -> tag.replace("proxy_a", "proxy_b")).toList();
        ObserverRuntime runtime = runtime(config(before, CONCURRENT));
        runtime.start();
        writer.runDue();
        prober.open().forEach(probe -> probe.succeed(Duration.ofMillis(5).toNanos()));
        writer.runDue();

        reload(runtime, config(after, CONCURRENT));
        writer.advance(INTERVAL.plusSeconds(1));

        List<String> lines = output.getOut()
                .lines()
                .filter(line -> line.contains("no longer observed") || line.contains("configuration reloaded"))
                .toList();
        assertThat(lines)
                .hasSize(2)
                .allSatisfy(line -> assertThat(line.length()).isLessThan(1_000));
        assertThat(lines.get(0))
                .endsWith("no longer observed (removed or deselected): 1000 outbounds [proxy_a0000,"
                        + " proxy_a0001, proxy_a0002, proxy_a0003, proxy_a0004, proxy_a0005, proxy_a0006, proxy_a0007,"
                        + " proxy_a0008, proxy_a0009, proxy_a0010, proxy_a0011, proxy_a0012, proxy_a0013, proxy_a0014,"
                        + " proxy_a0015, proxy_a0016, proxy_a0017, proxy_a0018, proxy_a0019, … and 980 more]");
        assertThat(lines.get(1))
                .contains("configuration reloaded: 1000 outbounds [proxy_b0000, proxy_b0001,")
                .endsWith(", proxy_b0019, … and 980 more], observer unchanged");
    }

    @Test
    void reloadWhenNothingChangedThenTheObserverAndItsProbeInFlightAreUntouched(CapturedOutput output) {
        ObserverRuntime runtime = runtime(config(List.of("proxy_a"), CONCURRENT));
        runtime.start();
        writer.runDue();

        reload(runtime, config(List.of("proxy_a"), CONCURRENT));

        ScriptedProber.Sent inFlight = prober.sent().get(0);
        assertThat(inFlight.cancelled).isFalse();
        inFlight.succeed(Duration.ofMillis(3).toNanos());
        writer.runDue();
        assertThat(published).extracting(OutboundStatus::delayMillis).containsExactly(3L);
        assertThat(output).contains("configuration reloaded: outbounds and observer unchanged");
    }

    @Test
    void reloadWhenProbeSettingsChangeThenWarnsOfTheRestartAndAppliesTheRest(CapturedOutput output) {
        ObserverRuntime runtime = startedWithBothAlive();
        List<String> changed = new ArrayList<>(List.of(CONCURRENT));
        changed.add("probe.max-concurrent=7");

        reload(runtime, config(List.of("proxy_a"), changed.toArray(String[]::new)));

        assertThat(output)
                .contains("observatory.probe changed (max-concurrent): probe settings take effect at the"
                        + " next start, the running ones stay in force; applying the rest");
        assertThat(published).extracting(OutboundStatus::tag).containsExactly("proxy_a");
    }

    @Test
    void stopWhenBeforeStartThenNothingIsEverProbedAndReloadsAreIgnored() {
        ObserverRuntime runtime = runtime(config(List.of("proxy_a"), CONCURRENT));

        runtime.stop();
        runtime.start();
        writer.runDue();
        reload(runtime, config(List.of("proxy_a", "proxy_b"), CONCURRENT));
        writer.advance(INTERVAL.multipliedBy(3));

        assertThat(prober.sent()).isEmpty();
        assertThat(published).isEmpty();
    }

    @Test
    void stopWhenProbeInFlightThenItIsCancelledAndItsLateResultIsNotRecorded() {
        ObserverRuntime runtime = runtime(config(List.of("proxy_a"), CONCURRENT));
        runtime.start();
        writer.runDue();
        ScriptedProber.Sent inFlight = prober.sent().get(0);

        runtime.stop();
        writer.runDue();
        inFlight.succeed(1_000_000);
        writer.advance(INTERVAL.multipliedBy(3));

        assertThat(inFlight.cancelled).isTrue();
        assertThat(recorded).isEmpty();
        assertThat(prober.sent()).hasSize(1);
    }

    @Test
    void reloadWhenBeforeStartThenStartUsesItAndOneObserverProbesUntilStopped() {
        ObserverRuntime runtime = runtime(config(List.of("proxy_a"), CONCURRENT));
        List<String> slower = new ArrayList<>(List.of(CONCURRENT));
        slower.set(2, "standard.probe-interval=20s");
        writer.execute(() -> runtime.reconfigure(config(List.of("proxy_a", "proxy_b"), slower.toArray(String[]::new))));

        runtime.start();
        writer.runDue();
        prober.open().forEach(probe -> probe.succeed(1_000_000));
        writer.runDue();
        writer.advance(INTERVAL);
        assertThat(prober.sent())
                .as("the reloaded outbounds, and the reloaded interval")
                .hasSize(2);
        runtime.stop();
        writer.advance(INTERVAL.multipliedBy(6));

        assertThat(prober.sent()).hasSize(2);
    }

    @Test
    void reloadWhenAResultOfTheRemovedOutboundIsQueuedBehindItThenTheResultIsNotRecorded() {
        ObserverRuntime runtime = startedWithBothAlive();
        writer.advance(INTERVAL);
        recorded.clear();
        ScriptedProber.Sent removedOnesProbe = prober.open().get(1);
        assertThat(removedOnesProbe.tag()).isEqualTo("proxy_b");

        writer.execute(() -> {
            removedOnesProbe.succeed(1_000_000);
            runtime.reconfigure(config(List.of("proxy_a"), CONCURRENT));
        });
        writer.runDue();

        assertThat(recorded).extracting(ProbeResult::outboundTag).doesNotContain("proxy_b");
        assertThat(published).extracting(OutboundStatus::tag).containsExactly("proxy_a");
    }

    @Test
    void reloadWhenProbeSettingsStayChangedThenEveryReloadWarnsAndARevertDoesNot(CapturedOutput output) {
        ObserverRuntime runtime = startedWithBothAlive();
        List<String> changed = new ArrayList<>(List.of(CONCURRENT));
        changed.add("probe.max-concurrent=7");
        String warning = "observatory.probe changed (max-concurrent): probe settings take effect at the next start";

        reload(runtime, config(List.of("proxy_a", "proxy_b"), changed.toArray(String[]::new)));
        reload(runtime, config(List.of("proxy_a", "proxy_b"), changed.toArray(String[]::new)));
        long whileChanged =
                output.getOut().lines().filter(line -> line.contains(warning)).count();
        reload(runtime, config(List.of("proxy_a", "proxy_b"), CONCURRENT));

        assertThat(whileChanged)
                .as("the running probe settings still differ at the second reload")
                .isEqualTo(2);
        assertThat(output.getOut().lines().filter(line -> line.contains(warning)))
                .as("reverted: nothing to restart")
                .hasSize(2);
    }
}
