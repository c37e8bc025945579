package io.observatory.api;

import static io.observatory.testing.Percentiles.millis;
import static io.observatory.testing.Percentiles.percentile;
import static io.observatory.testing.SyntheticStatuses.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.ObserverOutput;
import io.observatory.time.ExecutorScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A measurement, not a timed test: one transition delivered to {@value #SUBSCRIBERS} WatchObservation subscribers,
 * each on its own connection, on the running service with 1,000 outbounds (or {@code benchmark.outbounds}); every
 * subscriber watches the transitioning outbound's tag. Prints, over {@value #TRANSITIONS} transitions, the delivery
 * latency from the publication to each subscriber (p50, p99, max over every delivery) and to the last subscriber of
 * each transition. Asserts only what the subscribers see: each transition reaches every one of them with the right
 * verdict.
 */
class WatchFanOutBenchmarkIT extends RunningServiceTest {

    private static final int OUTBOUNDS = Integer.getInteger("benchmark.outbounds", 1_000);
    private static final int SUBSCRIBERS = 1_000;
    private static final int TRANSITIONS = 30;
    private static final int WARM_UP_TRANSITIONS = 10;

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        for (int i = 0; i < OUTBOUNDS; i++) {
            registerDirectOutbound(registry, i, tag(i), null);
        }
    }

    @Autowired
    private ExecutorScheduler writer;

    @Autowired
    private ObservationUpdater updater;

    private final List<ManagedChannel> channels = new ArrayList<>();

    private static String tag(int i) {
        return String.format("proxy_%05d", i);
    }

    @AfterEach
    void closeChannels() throws InterruptedException {
        channels.forEach(ManagedChannel::shutdownNow);
        for (ManagedChannel channel : channels) {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void oneTransitionToOneThousandSubscribersEachOnItsOwnConnection() throws InterruptedException {
        List<OutboundStatus> all = IntStream.range(0, OUTBOUNDS)
                .mapToObj(i -> status(tag(i), true))
                .toList();
        writer.execute(() -> ObserverOutput.publish(updater, all));
        AtomicReference<Round> round = new AtomicReference<>();
        CountDownLatch subscribed = new CountDownLatch(SUBSCRIBERS);
        AtomicInteger failures = new AtomicInteger();
        WatchObservationRequest request =
                WatchObservationRequest.newBuilder().addTagPrefixes(tag(0)).build();
        for (int i = 0; i < SUBSCRIBERS; i++) {
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort())
                    .usePlaintext()
                    .build();
            channels.add(channel);
            ObservatoryServiceGrpc.newStub(channel).watchObservation(request, new StreamObserver<>() {
                private boolean started;

                @Override
                public void onNext(WatchObservationResponse value) {
                    if (!started) {
                        started = true;
                        subscribed.countDown();
                        return;
                    }
                    Round current = round.get();
                    if (current != null && value.hasChanged()) {
                        current.delivered(value);
                    }
                }

                @Override
                public void onError(Throwable t) {
                    failures.incrementAndGet();
                }

                @Override
                public void onCompleted() {}
            });
        }
        assertThat(subscribed.await(60, TimeUnit.SECONDS))
                .as("every subscriber has its first snapshot")
                .isTrue();

        long[] deliveries = new long[TRANSITIONS * SUBSCRIBERS];
        long[] lastDeliveries = new long[TRANSITIONS];
        for (int i = 0; i < WARM_UP_TRANSITIONS + TRANSITIONS; i++) {
            boolean alive = i % 2 == 1;
            Round current = new Round(alive);
            round.set(current);
            current.startNanos = System.nanoTime();
            writer.execute(() -> updater.changed(List.of(status(tag(0), alive)), List.of()));
            assertThat(current.done.await(30, TimeUnit.SECONDS))
                    .as("transition %d reached every subscriber", i)
                    .isTrue();
            assertThat(current.wrongVerdicts.get())
                    .as("wrong verdicts in transition %d", i)
                    .isZero();
            if (i >= WARM_UP_TRANSITIONS) {
                int measured = i - WARM_UP_TRANSITIONS;
                long last = 0;
                for (int s = 0; s < SUBSCRIBERS; s++) {
                    long latency = current.arrivals[s] - current.startNanos;
                    deliveries[measured * SUBSCRIBERS + s] = latency;
                    last = Math.max(last, latency);
                }
                lastDeliveries[measured] = last;
            }
        }
        assertThat(failures.get()).as("streams that failed").isZero();

        System.out.printf(
                "Watch fan-out, one transition to %d subscribers (own connection each, %d outbounds), %d"
                        + " transitions after %d warm-up: delivery p50 %.1f ms, p99 %.1f ms, max %.1f ms; last subscriber of"
                        + " a transition p50 %.1f ms, p99 %.1f ms%n",
                SUBSCRIBERS,
                OUTBOUNDS,
                TRANSITIONS,
                WARM_UP_TRANSITIONS,
                millis(percentile(deliveries, 50)),
                millis(percentile(deliveries, 99)),
                millis(percentile(deliveries, 100)),
                millis(percentile(lastDeliveries, 50)),
                millis(percentile(lastDeliveries, 99)));
    }

    /** One transition's deliveries: arrival times in order of arrival, and whether each showed the new verdict. */
    private static final class Round {
        final long[] arrivals = new long[SUBSCRIBERS];
        final AtomicInteger arrived = new AtomicInteger();
        final AtomicInteger wrongVerdicts = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(SUBSCRIBERS);
        final io.observatory.api.v1.HealthState expected;
        volatile long startNanos;

        Round(boolean alive) {
            this.expected = alive
                    ? io.observatory.api.v1.HealthState.HEALTH_STATE_HEALTHY
                    : io.observatory.api.v1.HealthState.HEALTH_STATE_UNHEALTHY;
        }

        void delivered(WatchObservationResponse value) {
            long now = System.nanoTime();
            int index = arrived.getAndIncrement();
            if (index < SUBSCRIBERS) {
                arrivals[index] = now;
            }
            if (value.getChanged().getOutbound().getVerdict() != expected) {
                wrongVerdicts.incrementAndGet();
            }
            done.countDown();
        }
    }
}
