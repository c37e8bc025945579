package io.observatory.management;

import io.observatory.snapshot.ObservationStore;
import io.observatory.time.Ticker;
import java.time.Duration;
import java.util.OptionalLong;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * The {@code observation} health contributor, part of the readiness group: UP once the observer has published its
 * first statuses, or once {@link #FIRST_SNAPSHOT_GRACE} has passed since the service started accepting traffic
 * (Spring Boot's {@link ReadinessState#ACCEPTING_TRAFFIC}, which follows the observer's start) without one, so a
 * service whose first round hangs, or that observes nothing, still becomes ready. OUT_OF_SERVICE before that.
 *
 * <p>Together with Spring Boot's {@code readinessState} this gives the readiness rule: the observer has started and
 * its first snapshot is out or the grace has passed. Shutdown turns {@code readinessState} to REFUSING_TRAFFIC.
 */
@Component
class ObservationHealthIndicator
        implements HealthIndicator, ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

    /**
     * How long readiness waits for the first snapshot: three times the standard observer's 5 s probe deadline. The
     * first result is published as soon as it arrives, within one deadline; the rest is margin for a slow start.
     */
    static final Duration FIRST_SNAPSHOT_GRACE = Duration.ofSeconds(15);

    private final ObservationStore store;
    private final Ticker ticker;
    // volatile: written on the thread that publishes the readiness event, read on health-check threads.
    private volatile OptionalLong acceptingTrafficSinceNanos = OptionalLong.empty();

    /**
     * @param store the observation whose first publication is awaited
     * @param ticker measures the grace
     */
    ObservationHealthIndicator(ObservationStore store, Ticker ticker) {
        this.store = store;
        this.ticker = ticker;
    }

    @Override
    public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
        if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC && acceptingTrafficSinceNanos.isEmpty()) {
            acceptingTrafficSinceNanos = OptionalLong.of(ticker.nanoTime());
        }
    }

    @Override
    public Health health() {
        if (store.current().observedAtNanos().isPresent()) {
            return Health.up().withDetail("reason", "first snapshot published").build();
        }
        OptionalLong since = acceptingTrafficSinceNanos;
        if (since.isEmpty()) {
            return Health.outOfService()
                    .withDetail("reason", "observer not started")
                    .build();
        }
        if (ticker.nanoTime() - since.getAsLong() >= FIRST_SNAPSHOT_GRACE.toNanos()) {
            return Health.up()
                    .withDetail(
                            "reason",
                            "no snapshot within the first " + FIRST_SNAPSHOT_GRACE.toSeconds()
                                    + " s; ready without one")
                    .build();
        }
        return Health.outOfService()
                .withDetail("reason", "waiting for the first snapshot")
                .build();
    }
}
