package io.observatory.api.auth;

import io.observatory.time.Ticker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bearer token kept in a file ({@code observatory.api.auth.token-file} or a mesh witness's {@code token-file}),
 * surrounding whitespace ignored, re-read when the file changes so that rotating a mounted Kubernetes Secret needs no
 * restart.
 *
 * <p>A call checks at most once per {@link #CHECK_INTERVAL} whether the file's modification time, size or identity
 * (inode, which changes when Kubernetes swaps a Secret's {@code ..data} link) changed, and re-reads it only then.
 * Checks never block calls: the one call that wins the check does it, the others use the token in hand.
 *
 * <p>A file that becomes unreadable, missing or empty keeps the <em>last good token</em> in force: an operator in the
 * middle of a rotation does not lock every client out. That is logged once at WARN until the file is good again;
 * a new token taking effect is logged at INFO. Neither line contains the token.
 */
final class TokenFile implements ApiToken {

    /** How often at most a call checks the file for a change. */
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(TokenFile.class);

    private final Path path;
    // Times the checks for a change, at most one per CHECK_INTERVAL.
    private final Ticker ticker;
    // Replaced whole by the call that wins refreshLock; read by every call without locking.
    private volatile Snapshot snapshot;
    // Taken with tryLock only: one call checks the file, concurrent calls go on with the current snapshot.
    private final ReentrantLock refreshLock = new ReentrantLock();
    // Guarded by refreshLock: whether the current trouble with the file was logged already.
    private boolean troubleLogged;

    /**
     * Reads the token from {@code path} now.
     *
     * @throws IllegalStateException if the file cannot be read or holds only whitespace (the message names the file)
     */
    TokenFile(Path path, String property, Ticker ticker) {
        this.path = path;
        this.ticker = ticker;
        long now = ticker.nanoTime();
        try {
            Stamp stamp = Stamp.of(path);
            String token = read(path);
            if (token.isEmpty()) {
                throw new IllegalStateException(property + ": " + path + " is empty (expected: a bearer token)");
            }
            snapshot = new Snapshot(ApiToken.fixed(token, source()), stamp, true, now);
        } catch (IOException e) {
            throw new IllegalStateException(property + ": cannot read " + path + " (" + describe(e) + ")", e);
        }
    }

    @Override
    public boolean matches(String presented) {
        return current().matches(presented);
    }

    @Override
    public String source() {
        return "token file " + path;
    }

    @Override
    public String toString() {
        return source();
    }

    /** The token in force, after checking the file for a change if the last check is older than the interval. */
    private ApiToken current() {
        Snapshot current = snapshot;
        long now = ticker.nanoTime();
        if (now - current.checkedNanos() < CHECK_INTERVAL.toNanos() || !refreshLock.tryLock()) {
            return current.token();
        }
        try {
            current = snapshot;
            if (now - current.checkedNanos() >= CHECK_INTERVAL.toNanos()) {
                current = refresh(current, now);
                snapshot = current;
            }
            return current.token();
        } finally {
            refreshLock.unlock();
        }
    }

    /** Called with refreshLock held. */
    private Snapshot refresh(Snapshot current, long now) {
        Stamp stamp;
        String token;
        try {
            stamp = Stamp.of(path);
            if (stamp.equals(current.stamp())) {
                if (current.stampHoldsToken()) {
                    recovered();
                }
                return current.checkedAt(now);
            }
            token = read(path);
        } catch (IOException e) {
            // No new stamp is recorded, so the next check reads again: a permission fix changes no stamp.
            trouble("cannot be read (" + describe(e) + ")");
            return current.checkedAt(now);
        }
        if (token.isEmpty()) {
            trouble("is empty");
            return new Snapshot(current.token(), stamp, false, now);
        }
        recovered();
        if (!current.token().matches(token)) {
            log.info("API token file {} changed: the new token is in force", path);
        }
        return new Snapshot(ApiToken.fixed(token, source()), stamp, true, now);
    }

    private void recovered() {
        if (troubleLogged) {
            troubleLogged = false;
            log.info("API token file {} is readable again", path);
        }
    }

    private void trouble(String what) {
        if (!troubleLogged) {
            troubleLogged = true;
            log.warn("API token file {} {}: keeping the last good token until it holds a token again", path, what);
        }
    }

    /** The file's content, trimmed; empty if it holds only whitespace. */
    private static String read(Path path) throws IOException {
        return Files.readString(path, StandardCharsets.UTF_8).strip();
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** What tells a changed file: modification time, size and identity (inode where the file system has one). */
    private record Stamp(
            FileTime modified, long size, @Nullable Object fileKey) {

        static Stamp of(Path path) throws IOException {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            return new Stamp(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
        }
    }

    /**
     * The token in force, the stamp of the file last read (the token's, or that of an empty file that followed it:
     * {@code stampHoldsToken} tells which), and when the file was last checked (ticker nanos).
     */
    private record Snapshot(ApiToken token, Stamp stamp, boolean stampHoldsToken, long checkedNanos) {

        Snapshot checkedAt(long nanos) {
            return new Snapshot(token, stamp, stampHoldsToken, nanos);
        }
    }
}
