package io.observatory.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The state file's frame and its atomic replacement. A file is an 8-byte magic {@code OBSSTATE}, a 4-byte format
 * version ({@value #FORMAT_VERSION}), the payload's length (8 bytes), its CRC32C (4 bytes), then the payload; all
 * big-endian. A write goes to a temporary file beside the target, is forced to the disk, and renamed over the target
 * in one atomic step (then the directory is forced), so a reader — after a crash at any moment, {@code kill -9}
 * included — finds the previous complete file or the new one, never a mix. A reader refuses anything else: not a
 * regular file, another magic or version, a length that does not match the file, a payload too large for the heap,
 * a checksum that does not match.
 */
final class StateFile {

    /** The version of the frame and of its payload ({@code observatory.state.v1.SavedState}). */
    static final int FORMAT_VERSION = 1;

    private static final byte[] MAGIC = "OBSSTATE".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_BYTES = MAGIC.length + Integer.BYTES + Long.BYTES + Integer.BYTES;
    /** The share of the heap a payload may take at most: 1/16, e.g. 16 MiB of a 256 MiB heap. */
    private static final long HEAP_SHARE = 16;

    private StateFile() {}

    /** What reading found. */
    sealed interface Read {}

    /** A complete file of this format: its payload. */
    @SuppressWarnings("ArrayRecordComponent") // handed once from the reader to the restore, never compared
    record Loaded(byte[] payload) implements Read {}

    /** No file (a first start, or warm restart just turned on). */
    record Missing() implements Read {}

    /** A file that cannot be used, and why, e.g. {@code truncated: 1,024 of 52,480 payload bytes}. */
    record Unusable(String why) implements Read {}

    /**
     * Replaces {@code file} with a frame of {@code payload}, atomically.
     *
     * @throws IOException if the temporary file cannot be written or renamed; the previous file is then untouched and
     *                     the temporary file deleted (a full disk gets its space back)
     */
    static void write(Path file, byte[] payload) throws IOException {
        Path directory = Objects.requireNonNull(file.toAbsolutePath().getParent(), "a file has a directory");
        Files.createDirectories(directory);
        Path temporary = directory.resolve(file.getFileName() + ".tmp");
        CRC32C crc = new CRC32C();
        crc.update(payload);
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES)
                .put(MAGIC)
                .putInt(FORMAT_VERSION)
                .putLong(payload.length)
                .putInt((int) crc.getValue())
                .flip();
        try {
            try (FileChannel channel = FileChannel.open(
                    temporary,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer body = ByteBuffer.wrap(payload);
                while (header.hasRemaining() || body.hasRemaining()) {
                    channel.write(new ByteBuffer[] {header, body});
                }
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            // A partial temporary file on a full disk would keep what space is left until a write succeeds.
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    /**
     * Reads {@code file}, refusing a payload larger than a sixteenth of the heap ({@code -Xmx}): restoring it takes
     * several times its size, and a file that large (garbage behind a valid-looking header, or the state of a much
     * larger fleet) would end the start-up in an {@link OutOfMemoryError} instead of a cold start.
     *
     * @throws IOException if the file exists but cannot be read
     */
    static Read read(Path file) throws IOException {
        return read(file, Runtime.getRuntime().maxMemory() / HEAP_SHARE);
    }

    /**
     * Reads {@code file}: the header first, so that a payload longer than {@code maxPayloadBytes} or than the file is
     * refused before anything is allocated for it; then the payload, into one array.
     *
     * @throws IOException if the file exists but cannot be read
     */
    static Read read(Path file, long maxPayloadBytes) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return new Missing();
        }
        if (!attributes.isRegularFile()) {
            return new Unusable(
                    "not a regular file but " + (attributes.isDirectory() ? "a directory" : "a special file"));
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < HEADER_BYTES) {
                return new Unusable("truncated: " + size + " bytes, shorter than the " + HEADER_BYTES + "-byte header");
            }
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            if (!readFully(channel, header)) {
                return new Unusable("truncated while read: shorter than the " + HEADER_BYTES + "-byte header");
            }
            header.flip();
            byte[] magic = new byte[MAGIC.length];
            header.get(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                return new Unusable("not an Observatory state file (no OBSSTATE magic)");
            }
            int version = header.getInt();
            if (version != FORMAT_VERSION) {
                return new Unusable("format version " + version + " (this build reads version " + FORMAT_VERSION + ")");
            }
            long length = header.getLong();
            int expectedCrc = header.getInt();
            long remaining = size - HEADER_BYTES;
            if (length != remaining) {
                return new Unusable((length > remaining || length < 0 ? "truncated: " : "trailing bytes: ") + remaining
                        + " of " + length + " payload bytes");
            }
            if (length > Math.min(maxPayloadBytes, Integer.MAX_VALUE - 8)) {
                return new Unusable("a payload of " + length + " bytes, more than the " + maxPayloadBytes
                        + " this process reads (a sixteenth of its heap)");
            }
            ByteBuffer payload = ByteBuffer.allocate((int) length);
            if (!readFully(channel, payload)) {
                return new Unusable("truncated while read: fewer than " + length + " payload bytes");
            }
            CRC32C crc = new CRC32C();
            crc.update(payload.array());
            if ((int) crc.getValue() != expectedCrc) {
                return new Unusable("checksum mismatch: the payload is corrupt");
            }
            return new Loaded(payload.array());
        }
    }

    /** Fills {@code buffer} from the channel's position; false if the file ends first. */
    private static boolean readFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                return false;
            }
        }
        return true;
    }
}
