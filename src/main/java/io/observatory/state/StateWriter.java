package io.observatory.state;

import io.observatory.text.GoDuration;
import io.observatory.time.Scheduler;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the state file at most once per interval, only after something changed, never on the writer or a request
 * thread: the writer takes a {@link StateSnapshot} (immutable references), and the file's own thread encodes and
 * {@linkplain StateFile#write replaces} the file. Snapshots taken while a write is in progress replace each other, so
 * a slow disk delays the file, never the writer. A failed write is logged when writes start failing and when they
 * work again, not at every attempt; the previous file stays in place meanwhile.
 */
final class StateWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StateWriter.class);
    private static final Duration LAST_CAPTURE_TIMEOUT = Duration.ofSeconds(5);

    private final Path file;
    private final long intervalNanos;
    private final Duration lastCaptureTimeout;
    private final Scheduler writer;
    private final Supplier<StateSnapshot> capture;
    private final ExecutorService io;
    private final AtomicReference<StateSnapshot> next = new AtomicReference<>();
    // Writer state below.
    private boolean scheduled;
    private long lastCaptureNanos = Long.MIN_VALUE;
    private boolean closed;
    // Confined to the io thread.
    private boolean failing;

    /**
     * @param file     the state file
     * @param interval the shortest time between two snapshots
     * @param writer   the writer; snapshots are taken there, and the interval runs on its ticker
     * @param capture  takes a snapshot; called on the writer
     */
    StateWriter(Path file, Duration interval, Scheduler writer, Supplier<StateSnapshot> capture) {
        this(file, interval, writer, capture, LAST_CAPTURE_TIMEOUT);
    }

    /** @param lastCaptureTimeout how long {@link #close()} waits for the writer to take the last snapshot */
    StateWriter(
            Path file,
            Duration interval,
            Scheduler writer,
            Supplier<StateSnapshot> capture,
            Duration lastCaptureTimeout) {
        this.file = file;
        this.intervalNanos = interval.toNanos();
        this.lastCaptureTimeout = lastCaptureTimeout;
        this.writer = writer;
        this.capture = capture;
        this.io = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "observatory-state-file");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Something changed: a snapshot follows once the interval since the last one has passed. Writer only. */
    void changed() {
        if (scheduled || closed) {
            return;
        }
        scheduled = true;
        long now = writer.nanoTime();
        long wait = lastCaptureNanos == Long.MIN_VALUE ? 0 : Math.max(0, lastCaptureNanos + intervalNanos - now);
        writer.schedule(Duration.ofNanos(wait), this::captureNow);
    }

    private void captureNow() {
        scheduled = false;
        if (closed) {
            return;
        }
        lastCaptureNanos = writer.nanoTime();
        if (next.getAndSet(capture.get()) == null) {
            io.execute(this::writeLatest);
        }
    }

    private void writeLatest() {
        StateSnapshot snapshot = next.getAndSet(null);
        if (snapshot != null) {
            write(snapshot);
        }
    }

    private void write(StateSnapshot snapshot) {
        try {
            StateFile.write(file, StateCodec.encode(snapshot).toByteArray());
            if (failing) {
                failing = false;
                log.info("state file {} written again", file);
            }
        } catch (IOException | RuntimeException e) {
            if (!failing) {
                failing = true;
                log.warn(
                        "state file {} not written ({}); the previous one stays, retrying after the next change",
                        file,
                        e.toString());
            }
        }
    }

    /**
     * Takes a last snapshot on the writer and writes it before returning (graceful shutdown), then stops. When the
     * writer does not take it within 5 s (it has stopped, or is stuck) or taking it fails, one line says so and the
     * file keeps the last periodic write. Any thread but the writer.
     */
    @Override
    public void close() {
        CompletableFuture<StateSnapshot> last = CompletableFuture.supplyAsync(
                () -> {
                    closed = true;
                    return capture.get();
                },
                writer::execute);
        try {
            try {
                next.set(last.get(lastCaptureTimeout.toNanos(), TimeUnit.NANOSECONDS));
                io.execute(this::writeLatest);
            } catch (TimeoutException e) {
                log.warn(
                        "state file {}: the writer took no last snapshot within {} of shutdown (it has stopped or is"
                                + " busy); the file keeps the last periodic write",
                        file,
                        GoDuration.format(lastCaptureTimeout));
            } catch (ExecutionException e) {
                log.warn(
                        "state file {}: the last snapshot could not be taken at shutdown ({}); the file keeps the last"
                                + " periodic write",
                        file,
                        String.valueOf(e.getCause()));
            }
            io.shutdown();
            if (!io.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("state file {}: the last write did not finish within 10 s of shutdown", file);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
