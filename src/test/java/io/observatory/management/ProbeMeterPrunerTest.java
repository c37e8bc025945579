package io.observatory.management;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.probe.MeteredProber;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import io.observatory.status.OutboundStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class ProbeMeterPrunerTest {

    private final AtomicLong nanos = new AtomicLong();
    private final ObservationStore store = new ObservationStore(nanos::get);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    ProbeMeterPrunerTest() {
        new ProbeMeterPruner(store, registry, nanos::get);
    }

    private void publish(String... tags) {
        List<OutboundStatus> statuses = new ArrayList<>();
        for (String tag : tags) {
            statuses.add(new OutboundStatus(tag, true, 8, "", null, null, null, null, new ActiveHealth(HealthState.HEALTHY, 1, 0), ""));
        }
        store.publish(new Observation(statuses));
    }

    /** Records what the metered prober records for one successful probe of {@code tag}; returns its result counter. */
    private Counter probed(String tag) {
        registry.timer(MeteredProber.RTT, "outbound", tag).record(8, TimeUnit.MILLISECONDS);
        registry.timer(MeteredProber.PHASE, "outbound", tag, "phase", "connect").record(1, TimeUnit.MILLISECONDS);
        Counter counter = registry.counter(MeteredProber.RESULTS,
                "outbound", tag, "outcome", "success", "error_kind", "none");
        counter.increment();
        return counter;
    }

    private List<String> outboundsWithMeters() {
        return registry.getMeters().stream()
                .map(Meter::getId)
                .map(id -> id.getTag("outbound"))
                .filter(tag -> tag != null)
                .distinct()
                .sorted()
                .toList();
    }

    @Test
    void publishWhenOutboundLeavesTheObservationThenAllItsProbeMetersVanishAtOnce() {
        probed("a");
        probed("b");
        publish("a", "b");

        publish("a");

        assertThat(outboundsWithMeters()).containsExactly("a");
        assertThat(registry.find(MeteredProber.RTT).tag("outbound", "b").timers()).isEmpty();
        assertThat(registry.find(MeteredProber.PHASE).tag("outbound", "b").timers()).isEmpty();
        assertThat(registry.find(MeteredProber.RESULTS).tag("outbound", "b").counters()).isEmpty();
    }

    @Test
    void publishWhenOutboundComesBackThenItsMetersStartAfresh() {
        probed("b");
        publish("b");
        publish();

        probed("b");
        publish("b");

        assertThat(registry.get(MeteredProber.RESULTS).tag("outbound", "b").counter().count()).isEqualTo(1);
    }

    @Test
    void publishWhenNewOutboundWasProbedBeforeItsFirstSnapshotThenItsMetersAreKept() {
        publish("a");
        Counter first = probed("new");

        publish("a");
        nanos.addAndGet(ProbeMeterPruner.UNOBSERVED_GRACE.minusNanos(1).toNanos());
        publish("a");
        publish("a", "new");

        assertThat(registry.get(MeteredProber.RESULTS).tag("outbound", "new").counter()).isSameAs(first);
        assertThat(first.count()).isEqualTo(1);
    }

    @Test
    void publishWhenProbeCompletedAfterItsOutboundLeftThenMetersVanishOnceTheGraceHasPassed() {
        probed("gone");
        publish("a", "gone");
        publish("a");
        probed("gone");

        publish("a");
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        publish("a");
        assertThat(outboundsWithMeters()).containsExactly("gone");

        nanos.addAndGet(ProbeMeterPruner.UNOBSERVED_GRACE.toNanos());
        publish("a");

        assertThat(outboundsWithMeters()).isEmpty();
    }

    @Test
    void publishThenOtherMetersAreLeftAlone() {
        registry.counter("observatory.outbound.alive", "outbound", "x").increment();
        registry.counter("jvm.other", "outbound", "x").increment();

        publish();
        nanos.addAndGet(ProbeMeterPruner.UNOBSERVED_GRACE.toNanos());
        publish();

        assertThat(outboundsWithMeters()).containsExactly("x");
        assertThat(registry.getMeters()).hasSize(2);
    }
}
