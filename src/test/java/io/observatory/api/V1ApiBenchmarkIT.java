package io.observatory.api;

import static io.observatory.testing.Percentiles.millis;
import static io.observatory.testing.Percentiles.percentile;
import static io.observatory.testing.SyntheticStatuses.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.GetObservationResponse;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.ObserverOutput;
import io.observatory.time.ExecutorScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Benchmark harness of the v1 API on the running service with 10,000 configured outbounds, the size at which one
 * publication must cost what changed (or {@code benchmark.v1.outbounds}). There is no observer: the harness hands
 * the updater one changed status at a time on the writer, as an observer publishes a probe result. Prints the
 * latency of Watch events from the transition to the client over 100 transitions, and of GetObservation at that
 * size. Asserts only what the client sees (every transition arrives, in order, with the right verdict), never a
 * speed.
 */
class V1ApiBenchmarkIT extends RunningServiceTest {

    /** Configured outbounds; the design's target size unless {@code -Dbenchmark.v1.outbounds} says otherwise. */
    private static final int OUTBOUNDS = Integer.getInteger("benchmark.v1.outbounds", 10_000);

    private static final int TRANSITIONS = 100;
    private static final int CALLS = 500;

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        for (int i = 0; i < OUTBOUNDS; i++) {
            registerDirectOutbound(registry, i, tag(i), null);
        }
    }

    @Autowired
    private ObservationStore store;

    @Autowired
    private ExecutorScheduler writer;

    @Autowired
    private ObservationUpdater updater;

    private static String tag(int i) {
        return String.format("proxy_%04d", i);
    }

    /** All outbounds alive except perhaps the first, as an observer would publish them. */
    private static List<OutboundStatus> observation(boolean firstAlive) {
        List<OutboundStatus> statuses = new ArrayList<>(OUTBOUNDS);
        statuses.add(status(tag(0), firstAlive));
        IntStream.range(1, OUTBOUNDS).forEach(i -> statuses.add(status(tag(i), true)));
        return List.copyOf(statuses);
    }

    /** Hands the whole status set to the updater on the writer, as an observer's first publication does. */
    private void publish(List<OutboundStatus> statuses) {
        writer.execute(() -> ObserverOutput.publish(updater, statuses));
    }

    /** Hands one changed status to the updater on the writer, as an observer publishes a probe result. */
    private void publishChange(OutboundStatus changed) {
        writer.execute(() -> updater.changed(List.of(changed), List.of()));
    }

    @Test
    void watchEventLatencyAndGetObservationLatencyAtOneThousandOutbounds() throws InterruptedException {
        BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();
        BlockingQueue<Long> decided = new LinkedBlockingQueue<>();
        store.watch(observation -> {}, update -> {
            if (!update.transitions().isEmpty()) {
                decided.add(System.nanoTime());
            }
        });
        List<WatchObservationResponse> changes = new ArrayList<>();
        ObservatoryServiceGrpc.newStub(channel)
                .watchObservation(
                        WatchObservationRequest.newBuilder()
                                .addTagPrefixes(tag(0))
                                .build(),
                        new StreamObserver<>() {
                            @Override
                            public void onNext(WatchObservationResponse value) {
                                long now = System.nanoTime();
                                synchronized (changes) {
                                    changes.add(value);
                                }
                                arrivals.add(now);
                            }

                            @Override
                            public void onError(Throwable t) {
                                arrivals.add(-1L);
                            }

                            @Override
                            public void onCompleted() {}
                        });
        assertThat(arrivals.poll(10, TimeUnit.SECONDS)).as("initial snapshot").isPositive();
        List<OutboundStatus> firstAlive = observation(true);
        List<OutboundStatus> firstDead = observation(false);
        publish(firstAlive);
        assertThat(arrivals.poll(10, TimeUnit.SECONDS)).as("first probe result").isPositive();
        decided.clear();

        long[] watchNanos = new long[TRANSITIONS];
        long[] decideNanos = new long[TRANSITIONS];
        for (int i = 0; i < TRANSITIONS; i++) {
            OutboundStatus next = (i % 2 == 1 ? firstAlive : firstDead).get(0);
            long start = System.nanoTime();
            publishChange(next);
            Long arrived = arrivals.poll(10, TimeUnit.SECONDS);
            assertThat(arrived).as("transition %d", i).isNotNull().isPositive();
            watchNanos[i] = arrived - start;
            decideNanos[i] = decided.poll(10, TimeUnit.SECONDS) - start;
        }

        synchronized (changes) {
            List<WatchObservationResponse> transitions = changes.subList(2, changes.size());
            assertThat(transitions).hasSize(TRANSITIONS);
            for (int i = 0; i < TRANSITIONS; i++) {
                assertThat(transitions.get(i).getChanged().getOutbound().getVerdict())
                        .isEqualTo(
                                i % 2 == 1
                                        ? io.observatory.api.v1.HealthState.HEALTH_STATE_HEALTHY
                                        : io.observatory.api.v1.HealthState.HEALTH_STATE_UNHEALTHY);
            }
        }

        ObservatoryServiceGrpc.ObservatoryServiceBlockingStub stub = ObservatoryServiceGrpc.newBlockingStub(channel);
        GetObservationResponse response = null;
        for (int i = 0; i < 100; i++) {
            response = stub.getObservation(GetObservationRequest.getDefaultInstance());
        }
        assertThat(response.getOutboundsCount()).isEqualTo(OUTBOUNDS);
        long[] getNanos = new long[CALLS];
        for (int i = 0; i < CALLS; i++) {
            long start = System.nanoTime();
            response = stub.getObservation(GetObservationRequest.getDefaultInstance());
            getNanos[i] = System.nanoTime() - start;
        }
        assertThat(response.getOutboundsCount()).isEqualTo(OUTBOUNDS);

        System.out.printf(
                "Watch event latency, publication of the transition to the client, over %d transitions with %d outbounds:"
                        + " median %.3f ms, p99 %.3f ms, max %.3f ms%n",
                TRANSITIONS,
                OUTBOUNDS,
                millis(percentile(watchNanos, 50)),
                millis(percentile(watchNanos, 99)),
                millis(percentile(watchNanos, 100)));
        System.out.printf(
                "  of which publication to verdict decided (writer thread): median %.3f ms, p99 %.3f ms%n",
                millis(percentile(decideNanos, 50)), millis(percentile(decideNanos, 99)));
        System.out.printf(
                "GetObservation latency at %d outbounds (%d bytes), over %d calls after 100 warm-up:"
                        + " median %.3f ms, p99 %.3f ms%n",
                OUTBOUNDS,
                response.getSerializedSize(),
                CALLS,
                millis(percentile(getNanos, 50)),
                millis(percentile(getNanos, 99)));
    }
}
