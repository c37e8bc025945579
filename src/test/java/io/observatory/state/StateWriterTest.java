package io.observatory.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.state.v1.SavedState;
import io.observatory.testing.Configs;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The graceful shutdown's last write, on a real writer thread and a real file. */
@ExtendWith(OutputCaptureExtension.class)
class StateWriterTest {

    private static final Instant TAKEN = Instant.parse("2026-12-01T10:00:00Z");
    private static final byte[] PREVIOUS = "the last periodic write".getBytes(StandardCharsets.UTF_8);

    private final ExecutorScheduler writer = new ExecutorScheduler("test-writer", Ticker.system());

    @TempDir
    Path directory;

    @AfterEach
    void stopWriter() {
        writer.close();
    }

    @Test
    void closeThenTheLastSnapshotIsWrittenBeforeItReturns() throws Exception {
        Path file = directory.resolve(StateSettings.FILE_NAME);
        StateWriter files = new StateWriter(file, Duration.ofHours(1), writer, StateWriterTest::snapshot);

        files.close();

        assertThat(StateFile.read(file))
                .isInstanceOfSatisfying(
                        StateFile.Loaded.class,
                        loaded -> assertThat(Timestamps.instant(parse(loaded).getWrittenTime()))
                                .isEqualTo(TAKEN));
    }

    @Test
    void closeWhenTheWriterHasStoppedThenOneLineAndTheLastPeriodicWriteStays(CapturedOutput output) throws Exception {
        Path file = directory.resolve(StateSettings.FILE_NAME);
        StateFile.write(file, PREVIOUS);
        writer.close();
        StateWriter files =
                new StateWriter(file, Duration.ofHours(1), writer, StateWriterTest::snapshot, Duration.ofMillis(50));

        files.close();

        assertThat(output)
                .contains("state file " + file + ": the writer took no last snapshot within 50ms of shutdown"
                        + " (it has stopped or is busy); the file keeps the last periodic write");
        assertThat(((StateFile.Loaded) StateFile.read(file)).payload()).isEqualTo(PREVIOUS);
    }

    @Test
    void closeWhenTakingTheLastSnapshotFailsThenOneLineSayingWhy(CapturedOutput output) throws Exception {
        Path file = directory.resolve(StateSettings.FILE_NAME);
        StateFile.write(file, PREVIOUS);
        StateWriter files = new StateWriter(
                file,
                Duration.ofHours(1),
                writer,
                () -> {
                    throw new IllegalStateException("no observation");
                },
                Duration.ofMinutes(1));

        files.close();

        assertThat(output)
                .contains("state file " + file + ": the last snapshot could not be taken at shutdown"
                        + " (java.lang.IllegalStateException: no observation); the file keeps the last periodic write");
        assertThat(((StateFile.Loaded) StateFile.read(file)).payload()).isEqualTo(PREVIOUS);
    }

    private static StateSnapshot snapshot() {
        ObservatoryConfig config = Configs.of();
        return new StateSnapshot(
                TAKEN,
                0,
                config,
                new Observation(Map.of(), config.availability().policy(), OptionalLong.empty()),
                Map.of(),
                new ObservationUpdater.PassiveEntries("transport-failure-rate", List.of()),
                Map.of());
    }

    private static SavedState parse(StateFile.Loaded loaded) {
        try {
            return SavedState.parseFrom(loaded.payload());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
