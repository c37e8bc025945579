package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.observatory.testing.Configs;
import io.observatory.config.ObservatoryConfig;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import io.observatory.status.OutboundStatus;
import io.observatory.testing.FakeScheduler;
import io.observatory.verdict.VerdictKeeper;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictGaugesTest {

    private final FakeScheduler scheduler = new FakeScheduler();
    private final ObservationStore store = new ObservationStore(scheduler);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static ObservatoryConfig config(String... tags) {
        return Configs.direct(List.of(tags));
    }

    private static OutboundStatus status(String tag, HealthState state) {
        boolean alive = state == HealthState.HEALTHY;
        return new OutboundStatus(tag, alive, 1, "", null, null, null, null,
                new ActiveHealth(state, alive ? 1 : 0, alive ? 0 : 1), "");
    }

    private Double gauge(String tag) {
        Gauge gauge = registry.find(VerdictGauges.VERDICT).tag("outbound", tag).gauge();
        return gauge == null ? null : gauge.value();
    }

    @Test
    void gaugeWhenVerdictsChangeThenOneUnknownZeroHealthyOneUnhealthyMinusOne() {
        VerdictKeeper keeper = new VerdictKeeper(config("a", "b", "c"), scheduler, scheduler.clock(), store);
        new VerdictGauges(keeper, registry);
        scheduler.runDue();

        store.publish(new Observation(List.of(status("a", HealthState.HEALTHY), status("b", HealthState.UNHEALTHY))));
        scheduler.runDue();

        assertThat(gauge("a")).isEqualTo(1.0);
        assertThat(gauge("b")).isEqualTo(-1.0);
        assertThat(gauge("c")).isEqualTo(0.0);
    }

    @Test
    void gaugeWhenOutboundLeavesAndReturnsThenRemovedAndRegisteredAgain() {
        VerdictKeeper keeper = new VerdictKeeper(config("a", "b"), scheduler, scheduler.clock(), store);
        new VerdictGauges(keeper, registry);
        scheduler.runDue();

        keeper.reconfigure(config("a"));
        scheduler.runDue();
        Double whileGone = gauge("b");
        keeper.reconfigure(config("a", "b"));
        scheduler.runDue();

        assertThat(whileGone).isNull();
        assertThat(gauge("b")).isEqualTo(0.0);
        assertThat(registry.find(VerdictGauges.VERDICT).gauges()).hasSize(2);
    }
}
