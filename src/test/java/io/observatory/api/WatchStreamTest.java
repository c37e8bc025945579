package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.PassiveView;
import io.observatory.testing.FakeServerCall;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * One watch stream between the writer, which only queues, and a client's flow control. The first group steps
 * deliveries by hand; the second lets the writer, delivery threads, gRPC's on-ready callback and shutdown race.
 */
class WatchStreamTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    /** {@code tag}'s entry at step {@code sequence}: the verdict alternates, the reason carries the step. */
    private static OutboundHealth entry(String tag, int sequence) {
        return new OutboundHealth(
                tag,
                null,
                PassiveView.NONE,
                List.of(),
                sequence % 2 == 0 ? HealthState.HEALTHY : HealthState.UNHEALTHY,
                T0.plusSeconds(sequence),
                "step " + sequence);
    }

    private static Observation observation(OutboundHealth... entries) {
        Map<String, OutboundHealth> byTag = new TreeMap<>();
        for (OutboundHealth entry : entries) {
            byTag.put(entry.tag(), entry);
        }
        return new Observation(byTag, new AvailabilityPolicy.HealthyOrPanic(0), OptionalLong.empty());
    }

    /** The update that moves {@code tag} from step {@code sequence - 1} to {@code sequence}: one transition. */
    private static ObservationUpdate step(String tag, int sequence) {
        OutboundHealth now = entry(tag, sequence);
        return new ObservationUpdate(
                observation(now), List.of(new OutboundEvent.Updated(entry(tag, sequence - 1), now)));
    }

    /** The step a message carries: the changed outbound's, or the snapshot's only outbound's; -1 for other kinds. */
    private static int stepOf(WatchObservationResponse message) {
        String reason = switch (message.getEventCase()) {
            case CHANGED -> message.getChanged().getOutbound().getLastChangeReason();
            case SNAPSHOT -> message.getSnapshot().getOutbounds(0).getLastChangeReason();
            default -> "step -1";
        };
        return Integer.parseInt(reason.substring("step ".length()));
    }

    @Nested
    class Stepped {

        private final FakeServerCall<WatchObservationResponse> call = new FakeServerCall<>();
        private final ArrayDeque<Runnable> deliveries = new ArrayDeque<>();

        private WatchStream stream(List<String> prefixes, int capacity) {
            return new WatchStream(call, prefixes, capacity, deliveries::add);
        }

        private void deliver() {
            while (!deliveries.isEmpty()) {
                deliveries.poll().run();
            }
        }

        @Test
        void startWhenDeliveredThenTheFirstMessageIsTheFullObservationNotFromTheWriter() {
            WatchStream stream = stream(List.of(), 8);

            stream.start(observation(entry("proxy_a", 0), entry("proxy_b", 0)));
            assertThat(call.messages()).as("the writer only queues").isEmpty();
            deliver();

            assertThat(call.messages()).singleElement().satisfies(message -> {
                assertThat(message.getSnapshot().getResync()).isFalse();
                assertThat(message.getSnapshot().getOutboundsList())
                        .extracting(o -> o.getTag())
                        .containsExactly("proxy_a", "proxy_b");
            });
        }

        @Test
        void startWhenClientsThatReadNothingHoldTheBudgetThenANewStreamIsRefusedUntilTheyGo() {
            // 600 watchers that never read, at 10,000 outbounds on -Xmx256m, each pinned a full snapshot in direct
            // memory: the delivery threads died with OutOfMemoryError and the scrapes stopped answering.
            UnreadAnswers budget = new UnreadAnswers(1);
            FakeServerCall<WatchObservationResponse> neverReads = new FakeServerCall<>();
            java.util.concurrent.atomic.AtomicInteger closed = new java.util.concurrent.atomic.AtomicInteger();
            WatchStream holding = new WatchStream(neverReads, List.of(), 8, deliveries::add, budget, stream -> {});
            neverReads.notReadyAfterEachMessage();
            holding.start(observation(entry("proxy_a", 0)));
            deliver();
            neverReads.ready(false);
            assertThat(neverReads.messages()).hasSize(1);
            assertThat(budget.unreadBytes()).as("its snapshot").isPositive();

            WatchStream refused =
                    new WatchStream(call, List.of(), 8, deliveries::add, budget, stream -> closed.incrementAndGet());
            refused.start(observation(entry("proxy_a", 0)));
            deliver();
            refused.offer(step("proxy_a", 1));
            deliver();

            assertThat(call.messages()).isEmpty();
            assertThat(call.error().getCode()).isEqualTo(io.grpc.Status.Code.RESOURCE_EXHAUSTED);
            assertThat(call.error().getDescription())
                    .startsWith("the server holds answers its clients have not read"
                            + " yet, and this stream's first message");
            assertThat(closed).as("the watchers stop feeding it").hasValue(1);

            holding.cancelled();
            assertThat(budget.unreadBytes()).isZero();
            FakeServerCall<WatchObservationResponse> later = new FakeServerCall<>();
            WatchStream served = new WatchStream(later, List.of(), 8, deliveries::add, budget, stream -> {});
            served.start(observation(entry("proxy_a", 0)));
            deliver();
            assertThat(later.messages()).hasSize(1);
        }

        @Test
        void onReadyWhenTheClientTookTheSnapshotAndNothingIsQueuedThenItsBytesGoBack() {
            // A stream whose outbounds stay quiet sends nothing more: without this it held its snapshot in the
            // budget for good, and a few such streams at 10,000 outbounds refused every other answer.
            UnreadAnswers budget = new UnreadAnswers(1 << 20);
            WatchStream quiet = new WatchStream(call, List.of(), 8, deliveries::add, budget, stream -> {});
            call.notReadyAfterEachMessage();
            quiet.start(observation(entry("proxy_a", 0)));
            deliver();
            assertThat(call.messages()).hasSize(1);
            assertThat(budget.unreadBytes())
                    .as("its snapshot, until its transport is ready again")
                    .isPositive();

            call.ready(true);
            quiet.onReady();

            assertThat(budget.unreadBytes()).isZero();
        }

        @Test
        void offerWhenClientNotReadyThenEventsWaitForTheOnReadyCallback() {
            WatchStream stream = stream(List.of(), 8);
            stream.start(observation(entry("proxy_a", 0)));
            deliver();
            call.ready(false);

            stream.offer(step("proxy_a", 1));
            stream.offer(step("proxy_a", 2));
            deliver();
            assertThat(call.messages()).hasSize(1);
            call.ready(true);
            stream.onReady();

            assertThat(call.messages()).extracting(WatchStreamTest::stepOf).containsExactly(0, 1, 2);
        }

        @Test
        void offerWhenBurstOfEventsThenOneDeliveryTaskIsQueued() {
            WatchStream stream = stream(List.of(), 64);

            stream.start(observation(entry("proxy_a", 0)));
            for (int i = 1; i <= 5; i++) {
                stream.offer(step("proxy_a", i));
            }

            assertThat(deliveries).hasSize(1);
            deliver();
            assertThat(call.messages()).extracting(WatchStreamTest::stepOf).containsExactly(0, 1, 2, 3, 4, 5);
        }

        @Test
        void offerWhenBufferOverflowsThenOneResyncSnapshotReplacesItAndLaterEventsFollow() {
            WatchStream stream = stream(List.of(), 2);
            stream.start(observation(entry("proxy_a", 0)));
            call.ready(false);

            for (int i = 1; i <= 5; i++) {
                stream.offer(step("proxy_a", i));
            }
            call.ready(true);
            stream.onReady();

            List<WatchObservationResponse> messages = call.messages();
            assertThat(messages)
                    .as("a buffer of 2 overflows at steps 2 and 4")
                    .extracting(WatchStreamTest::stepOf)
                    .containsExactly(4, 5);
            assertThat(messages.get(0).getSnapshot().getResync()).isTrue();
            assertThat(messages.get(1).hasChanged()).isTrue();
        }

        @Test
        void offerWhenOnlyOtherOutboundsOrEvidenceChangedThenNothingIsSent() {
            WatchStream stream = stream(List.of("proxy_a"), 8);
            stream.start(observation(entry("proxy_a", 0), entry("proxy_b", 0)));
            deliver();
            OutboundHealth sameState = new OutboundHealth(
                    "proxy_a", null, PassiveView.NONE, List.of(), HealthState.HEALTHY, T0, "evidence only");

            stream.offer(step("proxy_b", 1));
            stream.offer(new ObservationUpdate(
                    observation(sameState), List.of(new OutboundEvent.Updated(entry("proxy_a", 0), sameState))));
            deliver();

            assertThat(call.messages())
                    .singleElement()
                    .satisfies(message -> assertThat(message.getSnapshot().getOutboundsList())
                            .extracting(o -> o.getTag())
                            .containsExactly("proxy_a"));
        }

        @Test
        void endWhenEventsQueuedThenTheyAreDroppedAndServingEndedCompletesTheCallOnce() {
            WatchStream stream = stream(List.of(), 8);
            stream.start(observation(entry("proxy_a", 0)));
            call.ready(false);
            stream.offer(step("proxy_a", 1));

            stream.end();
            stream.end();
            stream.offer(step("proxy_a", 2));
            deliver();
            stream.onReady();

            assertThat(call.messages())
                    .singleElement()
                    .satisfies(message -> assertThat(message.getServingEnded().getReason())
                            .isEqualTo("observatory is shutting down"));
            assertThat(call.completions()).isEqualTo(1);
            assertThat(call.callsAfterEnd()).isZero();
        }

        @Test
        void endWhenClientCancelledThenNothingIsSent() {
            WatchStream stream = stream(List.of(), 8);
            call.cancel();

            stream.end();

            assertThat(call.messages()).isEmpty();
            assertThat(call.completions()).isZero();
        }

        @Test
        void sendWhenAMessageCannotBeSentThenTheCallFailsWithInternalOnceAndTheStreamGoesQuiet() {
            WatchStream stream = stream(List.of(), 8);
            call.failNext(new IllegalStateException("marshaller broke"));

            stream.start(observation(entry("proxy_a", 0)));
            deliver();
            stream.offer(step("proxy_a", 1));
            deliver();
            stream.end();

            assertThat(call.error()).isNotNull();
            assertThat(call.error().getCode()).isEqualTo(Status.Code.INTERNAL);
            assertThat(call.error().getDescription()).isEqualTo("the observation could not be sent");
            assertThat(call.messages()).isEmpty();
            assertThat(call.callsAfterEnd()).isZero();
        }
    }

    @Nested
    class Races {

        private static final int STEPS = 2_000;

        private final ExecutorService threads = Executors.newFixedThreadPool(4);
        private final FakeServerCall<WatchObservationResponse> call = new FakeServerCall<>();

        @AfterEach
        void stopThreads() throws InterruptedException {
            threads.shutdownNow();
            assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        /**
         * Lets the writer offer {@link #STEPS} steps while a client flips readiness and calls back as gRPC's transport
         * would, together with {@code others}, all released at once; returns when all of them are done.
         */
        private void race(WatchStream stream, Callable<?>... others) throws Exception {
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch written = new CountDownLatch(1);
            List<Future<?>> racers = new ArrayList<>();
            racers.add(threads.submit(() -> {
                go.await();
                for (int i = 1; i <= STEPS; i++) {
                    stream.offer(step("proxy_a", i));
                }
                written.countDown();
                return null;
            }));
            racers.add(threads.submit(() -> {
                go.await();
                for (int i = 0; written.getCount() > 0 && i < 1_000_000; i++) {
                    call.ready(i % 3 != 0);
                    stream.onReady();
                }
                call.ready(true);
                stream.onReady();
                return null;
            }));
            for (Callable<?> other : others) {
                racers.add(threads.submit(() -> {
                    go.await();
                    return other.call();
                }));
            }
            go.countDown();
            for (Future<?> racer : racers) {
                racer.get(30, TimeUnit.SECONDS);
            }
        }

        @RepeatedTest(5)
        void raceWhenWriterAndFlowControlInterleaveThenEveryEventArrivesOnceInOrderFromOneThreadAtATime()
                throws Exception {
            WatchStream stream = new WatchStream(call, List.of(), STEPS + 1, threads);
            stream.start(observation(entry("proxy_a", 0)));

            race(stream);
            await().atMost(Duration.ofSeconds(10)).until(() -> call.messages().size() == STEPS + 1);

            assertThat(call.messages())
                    .extracting(WatchStreamTest::stepOf)
                    .containsExactlyElementsOf(
                            IntStream.rangeClosed(0, STEPS).boxed().toList());
            assertThat(call.overlaps()).isZero();
        }

        @RepeatedTest(5)
        void raceWhenSlowClientOverflowsRepeatedlyThenStepsNeverGoBackAndTheLastStepArrives() throws Exception {
            WatchStream stream = new WatchStream(call, List.of(), 16, threads);
            stream.start(observation(entry("proxy_a", 0)));

            race(stream);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !call.messages().isEmpty()
                            && stepOf(call.messages().get(call.messages().size() - 1)) == STEPS);

            List<Integer> steps =
                    call.messages().stream().map(WatchStreamTest::stepOf).toList();
            assertThat(steps).isSorted().doesNotHaveDuplicates();
            assertThat(call.overlaps()).isZero();
        }

        @RepeatedTest(5)
        void raceWhenShutdownMeetsDeliveryThenServingEndedIsTheLastMessageAndTheCallCompletesOnce() throws Exception {
            WatchStream stream = new WatchStream(call, List.of(), 64, threads);
            stream.start(observation(entry("proxy_a", 0)));

            race(stream, () -> {
                stream.end();
                return null;
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> call.completions() == 1);

            List<WatchObservationResponse> messages = call.messages();
            assertThat(messages.get(messages.size() - 1).hasServingEnded()).isTrue();
            assertThat(messages)
                    .filteredOn(WatchObservationResponse::hasServingEnded)
                    .hasSize(1);
            assertThat(call.callsAfterEnd()).isZero();
            assertThat(call.overlaps()).isZero();
        }
    }
}
