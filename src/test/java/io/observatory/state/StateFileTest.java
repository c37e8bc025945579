package io.observatory.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileTest {

    private static final byte[] PAYLOAD = "the payload of a saved state".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path directory;

    @Test
    void readWhenWrittenThenThePayload() throws Exception {
        Path file = directory.resolve("observatory.state");
        StateFile.write(file, PAYLOAD);

        assertThat(StateFile.read(file))
                .isInstanceOfSatisfying(
                        StateFile.Loaded.class,
                        loaded -> assertThat(loaded.payload()).isEqualTo(PAYLOAD));
        assertThat(directory.resolve("observatory.state.tmp")).doesNotExist();
    }

    @Test
    void writeWhenAFileExistsThenReplacesItAndALeftoverTemporaryFileDoesNotMatter() throws Exception {
        Path file = directory.resolve("observatory.state");
        StateFile.write(file, "older".getBytes(StandardCharsets.UTF_8));
        Files.write(directory.resolve("observatory.state.tmp"), new byte[] {1, 2, 3});

        StateFile.write(file, PAYLOAD);

        assertThat(((StateFile.Loaded) StateFile.read(file)).payload()).isEqualTo(PAYLOAD);
    }

    @Test
    void writeWhenTheFileCannotBeReplacedThenThrowsAndLeavesNoTemporaryFile() throws Exception {
        Path file = Files.createDirectory(directory.resolve("observatory.state"));
        Files.writeString(file.resolve("inside"), "a directory in the file's place");

        assertThatThrownBy(() -> StateFile.write(file, PAYLOAD)).isInstanceOf(IOException.class);

        assertThat(directory.resolve("observatory.state.tmp")).doesNotExist();
    }

    @Test
    void writeWhenTheDirectoryIsMissingThenCreatesIt() throws Exception {
        Path file = directory.resolve("a/b/observatory.state");

        StateFile.write(file, PAYLOAD);

        assertThat(StateFile.read(file)).isInstanceOf(StateFile.Loaded.class);
    }

    @Test
    void readWhenNoFileThenMissing() throws Exception {
        assertThat(StateFile.read(directory.resolve("observatory.state"))).isInstanceOf(StateFile.Missing.class);
    }

    @Test
    void readWhenTruncatedAtAnyLengthThenUnusableSayingSo() throws Exception {
        Path file = directory.resolve("observatory.state");
        StateFile.write(file, PAYLOAD);
        byte[] whole = Files.readAllBytes(file);

        for (int length = 0; length < whole.length; length++) {
            Files.write(file, Arrays.copyOf(whole, length));

            assertThat(StateFile.read(file))
                    .as("the first %d bytes", length)
                    .isInstanceOfSatisfying(
                            StateFile.Unusable.class,
                            unusable -> assertThat(unusable.why()).startsWith("truncated: "));
        }
    }

    @Test
    void readWhenAnyPayloadByteIsFlippedThenChecksumMismatch() throws Exception {
        Path file = directory.resolve("observatory.state");
        StateFile.write(file, PAYLOAD);
        byte[] whole = Files.readAllBytes(file);
        int header = whole.length - PAYLOAD.length;

        for (int i = header; i < whole.length; i++) {
            byte[] corrupt = whole.clone();
            corrupt[i] ^= 0x10;
            Files.write(file, corrupt);

            assertThat(StateFile.read(file))
                    .isEqualTo(new StateFile.Unusable("checksum mismatch: the payload is corrupt"));
        }
    }

    @Test
    void readWhenAnotherFormatVersionThenUnusableNamingBoth() throws Exception {
        Path file = directory.resolve("observatory.state");
        StateFile.write(file, PAYLOAD);
        byte[] whole = Files.readAllBytes(file);
        whole[11] = 7;
        Files.write(file, whole);

        assertThat(StateFile.read(file))
                .isEqualTo(new StateFile.Unusable("format version 7 (this build reads version 1)"));
    }

    @Test
    void readWhenNotAStateFileThenUnusable() throws Exception {
        Path file = directory.resolve("observatory.state");
        Files.writeString(file, "outbounds:\n  - tag: proxy_a\n    protocol: direct\n");

        assertThat(StateFile.read(file))
                .isEqualTo(new StateFile.Unusable("not an Observatory state file (no OBSSTATE magic)"));
    }

    @Test
    void readWhenBytesFollowThePayloadThenUnusable() throws Exception {
        Path file = directory.resolve("observatory.state");
        StateFile.write(file, PAYLOAD);
        Files.write(file, new byte[] {0}, StandardOpenOption.APPEND);

        assertThat(StateFile.read(file))
                .isEqualTo(new StateFile.Unusable(
                        "trailing bytes: " + (PAYLOAD.length + 1) + " of " + PAYLOAD.length + " payload bytes"));
    }

    @Test
    void readWhenThePayloadIsLargerThanTheLimitThenUnusableBeforeReadingIt() throws Exception {
        Path file = directory.resolve("observatory.state");
        StateFile.write(file, new byte[4096]);

        assertThat(StateFile.read(file, 4095))
                .isEqualTo(new StateFile.Unusable(
                        "a payload of 4096 bytes, more than the 4095 this process reads (a sixteenth of its heap)"));
        assertThat(StateFile.read(file, 4096)).isInstanceOf(StateFile.Loaded.class);
    }

    @Test
    void readWhenADirectoryThenUnusableSayingSo() throws Exception {
        Path file = Files.createDirectory(directory.resolve("observatory.state"));

        assertThat(StateFile.read(file)).isEqualTo(new StateFile.Unusable("not a regular file but a directory"));
    }
}
