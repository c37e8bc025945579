package io.observatory.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.observatory.health.HealthState;
import io.observatory.verdict.BoardUpdate;
import io.observatory.verdict.HealthBoard;
import io.observatory.verdict.VerdictEvent;
import io.observatory.verdict.VerdictKeeper;
import java.util.HashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * One gauge per configured outbound, {@value #VERDICT} (tag {@code outbound}): its combined verdict as a number, 1
 * healthy, 0 unknown, -1 unhealthy, so {@code observatory_outbound_verdict < 0} lists the outbounds balancers avoid.
 * Registered when an outbound appears and removed when it leaves the configuration; values are read from the
 * current board at each scrape.
 */
@Component
class VerdictGauges {

    /** Verdict gauge; Prometheus shows {@code observatory_outbound_verdict}. */
    static final String VERDICT = "observatory.outbound.verdict";

    private final MeterRegistry registry;
    private final VerdictKeeper verdicts;
    // Confined to the verdict writer thread: the board and every update arrive there.
    private final Map<String, Meter> gauges = new HashMap<>();

    VerdictGauges(VerdictKeeper verdicts, MeterRegistry registry) {
        this.registry = registry;
        this.verdicts = verdicts;
        verdicts.watch(this::start, this::update);
    }

    private void start(HealthBoard board) {
        board.all().forEach(outbound -> register(outbound.tag()));
    }

    private void update(BoardUpdate update) {
        for (VerdictEvent event : update.events()) {
            if (event instanceof VerdictEvent.Removed) {
                Meter gauge = gauges.remove(event.tag());
                if (gauge != null) {
                    registry.remove(gauge);
                }
            } else {
                register(event.tag());
            }
        }
    }

    private void register(String tag) {
        gauges.computeIfAbsent(tag, t -> Gauge.builder(VERDICT, this, gauges -> gauges.verdict(t))
                .description("Combined verdict of the outbound: 1 healthy, 0 unknown, -1 unhealthy")
                .tag("outbound", t)
                .register(registry));
    }

    private double verdict(String tag) {
        return verdicts.board().get(tag).map(outbound -> value(outbound.verdict())).orElse(Double.NaN);
    }

    private static double value(HealthState state) {
        return switch (state) {
            case HEALTHY -> 1;
            case UNKNOWN -> 0;
            case UNHEALTHY -> -1;
        };
    }
}
