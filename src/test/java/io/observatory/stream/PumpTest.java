package io.observatory.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.observatory.api.UnreadAnswers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * One stream's pump between a backlog and an outlet whose readiness the test sets (a recording outlet: the gRPC one
 * is exercised by the API's and the mesh's stream tests), under a real budget of unread
 * bytes shared with another holder, on a delivery executor that runs its task at once: what the client receives, what
 * the budget holds, and when the stream ends.
 */
class PumpTest {

    private static final long BUDGET_BYTES = 100;

    private final RecordingOutlet outlet = new RecordingOutlet();
    private final UnreadAnswers budget = new UnreadAnswers(BUDGET_BYTES);
    private final Events<String> backlog = new Events<>(8);
    private final AtomicInteger endedOnItsOwn = new AtomicInteger();

    private Pump<String> pump(boolean laterRefusalEnds) {
        return pump(laterRefusalEnds, Runnable::run);
    }

    private Pump<String> pump(boolean laterRefusalEnds, Executor delivery) {
        return new Pump<>(
                outlet,
                backlog,
                delivery,
                new Pump.Limits<>(budget, String::length, laterRefusalEnds, "message", "the test's stream failed"),
                System::nanoTime,
                ended -> endedOnItsOwn.incrementAndGet());
    }

    @Test
    void offeredWhenTheOutletTakesMessagesThenTheyArriveInOrderAndTheirBytesAreHeldUntilItIsReadyAgain() {
        Pump<String> pump = pump(false);
        outlet.pauseAfterSend = true;

        backlog.offer(() -> "first");
        backlog.offer(List.of(() -> "second"), () -> "snapshot");
        pump.offered();
        assertThat(outlet.sent).containsExactly("first");
        assertThat(budget.unreadBytes()).isEqualTo("first".length());

        outlet.ready = true;
        pump.ready();
        assertThat(outlet.sent).containsExactly("first", "second");
        assertThat(budget.unreadBytes()).isEqualTo("second".length());

        outlet.ready = true;
        pump.ready();
        assertThat(budget.unreadBytes()).isZero();
    }

    @Test
    void firstMessageWhenTheBudgetIsSpentThenTheStreamIsRefusedWithoutBuildingIt() {
        Pump<String> pump = pump(false);
        AtomicInteger built = new AtomicInteger();
        budget.tryHold(BUDGET_BYTES);

        backlog.offer(() -> {
            built.incrementAndGet();
            return "snapshot";
        });
        pump.offered();

        assertThat(built).hasValue(0);
        assertThat(outlet.failed).isNotNull();
        assertThat(outlet.failed.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(outlet.failed.getDescription())
                .isEqualTo("the server holds answers its clients have not read yet, and this stream's first message"
                        + " would exceed the budget of 100 bytes (expected: a retry after a moment)");
        assertThat(pump.ended()).isTrue();
        assertThat(endedOnItsOwn).hasValue(1);
    }

    @Test
    void laterMessageWhenItDoesNotFitThenHeldBackUntilTheBudgetGivesBytesBackWithoutAnotherOffer() {
        Pump<String> pump = pump(false);
        backlog.offer(() -> "0123456789");
        pump.offered();
        budget.tryHold(80);

        String large = "x".repeat(30);
        backlog.offer(List.of(() -> large), () -> "snapshot");
        pump.offered();

        assertThat(outlet.sent).containsExactly("0123456789");
        assertThat(pump.ended()).isFalse();
        budget.release(80);
        assertThat(outlet.sent).containsExactly("0123456789", large);
    }

    @Test
    void laterMessageWhenItDoesNotFitAndLaterRefusalEndsThenTheStreamEndsSayingWhichMessage() {
        Pump<String> pump = pump(true);
        backlog.offer(() -> "0123456789");
        pump.offered();
        budget.tryHold(95);

        backlog.offer(List.of(() -> "x".repeat(30)), () -> "snapshot");
        pump.offered();

        assertThat(outlet.failed).isNotNull();
        assertThat(outlet.failed.getDescription()).contains("this stream's next message of 30 bytes");
        assertThat(endedOnItsOwn).hasValue(1);
    }

    @Test
    void cancelledWhenBytesAreHeldThenTheBudgetGetsThemBack() {
        Pump<String> pump = pump(false);
        outlet.pauseAfterSend = true;
        backlog.offer(() -> "0123456789");
        pump.offered();
        assertThat(budget.unreadBytes()).isEqualTo(10);

        outlet.cancelled = true;
        pump.cancelled();

        assertThat(budget.unreadBytes()).isZero();
        assertThat(pump.ended()).isTrue();
        assertThat(endedOnItsOwn)
                .as("a cancelled stream is the caller's to drop")
                .hasValue(0);
    }

    @Test
    void endWhenCalledTwiceThenTheFinalMessageIsSentOnceAndTheStreamCompleted() {
        Pump<String> pump = pump(false);
        backlog.offer(() -> "queued, dropped");

        pump.end("serving ended");
        pump.end("serving ended");

        assertThat(outlet.sent).containsExactly("serving ended");
        assertThat(outlet.completed).hasValue(1);
    }

    @Test
    void offeredWhenTheDeliveryExecutorHasStoppedThenTheStreamEndsAndGivesItsBytesBack() {
        List<Runnable> tasks = new ArrayList<>();
        boolean[] stopped = {false};
        Pump<String> pump = pump(false, task -> {
            if (stopped[0]) {
                throw new RejectedExecutionException("stopped");
            }
            tasks.add(task);
        });
        outlet.pauseAfterSend = true;
        backlog.offer(() -> "0123456789");
        pump.offered();
        tasks.remove(0).run();
        assertThat(budget.unreadBytes()).isEqualTo(10);

        stopped[0] = true;
        backlog.offer(List.of(() -> "later"), () -> "snapshot");
        pump.offered();

        assertThat(pump.ended()).isTrue();
        assertThat(budget.unreadBytes()).isZero();
        assertThat(backlog.isEmpty()).isTrue();
    }

    /** An outlet whose readiness the test sets, recording what reaches the client. */
    private static final class RecordingOutlet implements Outlet<String> {

        final List<String> sent = new ArrayList<>();
        final AtomicInteger completed = new AtomicInteger();
        volatile boolean ready = true;
        // Flow control that says "not ready" after each message, until the test says the client took it.
        volatile boolean pauseAfterSend;
        volatile boolean cancelled;
        volatile @Nullable Status failed;

        @Override
        public boolean ready() {
            return ready;
        }

        @Override
        public boolean cancelled() {
            return cancelled;
        }

        @Override
        public void send(String message) {
            sent.add(message);
            if (pauseAfterSend) {
                ready = false;
            }
        }

        @Override
        public void complete() {
            completed.incrementAndGet();
        }

        @Override
        public void fail(Status status) {
            failed = status;
        }
    }
}
