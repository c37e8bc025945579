package io.observatory.proxycore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.testing.FakeScheduler;
import io.observatory.time.Scheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervision of one core process on fake time: real processes ({@code /bin/sh}) that exit at once are restarted
 * after delays that double up to the maximum; stopping cancels the restart and removes the PID file.
 */
class CoreProcessTest {

    private static final Duration FIRST = Duration.ofSeconds(1);
    private static final Duration MAX = Duration.ofSeconds(4);
    private static final Duration EXIT_SEEN = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final FakeScheduler fake = new FakeScheduler();
    /** The fake scheduler, locked: a process's exit is handed to it from a JDK thread. */
    private final Locked time = new Locked(fake);

    private CoreProcess exitingAtOnce() {
        Path config = dir.resolve("core.json");
        return new CoreProcess(
                List.of("/bin/sh", "-c", "exit 3", "sh", config.toString()),
                config,
                "{}",
                dir.resolve("core.pid"),
                time,
                FIRST,
                MAX);
    }

    private long pid() throws IOException {
        return Long.parseLong(Files.readString(dir.resolve("core.pid")).strip());
    }

    /** Waits until the started process has exited and its exit was handed to the scheduler, then handles it. */
    private void exitHandled(long pid) {
        await().atMost(EXIT_SEEN).until(() -> ProcessHandle.of(pid).isEmpty() && time.pending() > 0);
        time.runDue();
    }

    @Test
    void coreWhenItKeepsExitingThenRestartedAfterDelaysThatDoubleUpToTheMaximum() throws IOException {
        CoreProcess core = exitingAtOnce();
        time.run(core::start);
        assertThat(Files.readString(dir.resolve("core.json")))
                .as("written before the start")
                .isEqualTo("{}");

        for (Duration delay : List.of(FIRST, FIRST.multipliedBy(2), MAX, MAX)) {
            long pid = pid();
            exitHandled(pid);
            time.advance(delay.minusMillis(1));
            assertThat(pid()).as("not restarted before %s", delay).isEqualTo(pid);
            time.advance(Duration.ofMillis(1));
            assertThat(pid()).as("restarted %s after the exit", delay).isNotEqualTo(pid);
        }
        time.run(core::stop);
    }

    @Test
    void coreWhenStoppedWhileARestartIsPendingThenNoRestartAndNoPidFile() throws IOException {
        CoreProcess core = exitingAtOnce();
        time.run(core::start);
        exitHandled(pid());

        time.run(core::stop);
        time.advance(MAX.multipliedBy(2));

        assertThat(dir.resolve("core.pid")).doesNotExist();
        assertThat(time.pending()).isZero();
    }

    /** A {@link FakeScheduler} whose every use holds one lock. */
    private static final class Locked implements Scheduler {

        private final FakeScheduler fake;

        Locked(FakeScheduler fake) {
            this.fake = fake;
        }

        @Override
        public synchronized Cancellable schedule(Duration delay, Runnable task) {
            Cancellable cancellable = fake.schedule(delay, task);
            return () -> {
                synchronized (this) {
                    cancellable.cancel();
                }
            };
        }

        @Override
        public synchronized long nanoTime() {
            return fake.nanoTime();
        }

        @Override
        public synchronized boolean inSchedulerThread() {
            return fake.inSchedulerThread();
        }

        synchronized void run(Runnable task) {
            fake.schedule(Duration.ZERO, task);
            fake.runDue();
        }

        synchronized void runDue() {
            fake.runDue();
        }

        synchronized void advance(Duration step) {
            fake.advance(step);
        }

        synchronized int pending() {
            return fake.pendingTasks();
        }
    }
}
