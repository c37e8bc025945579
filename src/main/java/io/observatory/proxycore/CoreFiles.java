package io.observatory.proxycore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The files Observatory writes for its core: the work directory (mode 0700) and files in it that only this user may
 * read (mode 0600), written whole before they appear under their name, since they hold the inbounds' passwords.
 */
final class CoreFiles {

    private CoreFiles() {}

    /**
     * The work directory of {@code settings}, created (mode 0700) when missing. An existing one must be a directory
     * (not a link) of this user with mode 0700: in a shared temporary directory another user could have made it first
     * and would then write the configuration the core runs.
     *
     * @throws UncheckedIOException with one line naming the property when it cannot be created or is not private
     */
    static Path directory(ProxyCoreSettings settings) {
        Path directory = settings.workPath();
        String property = "observatory.core.work-directory: " + directory;
        try {
            if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
            }
            boolean directoryItself = Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS);
            String owner = Files.getOwner(directory, LinkOption.NOFOLLOW_LINKS).getName();
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS);
            String user = System.getProperty("user.name");
            if (!directoryItself || !owner.equals(user) || !mode.equals(PRIVATE_DIRECTORY)) {
                throw new UncheckedIOException(new IOException(property + " is not a private directory (expected: a"
                        + " directory, not a link, owned by " + user + " with mode 0700; it is "
                        + PosixFilePermissions.toString(mode) + ", owned by " + owner + ")"));
            }
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(property + " cannot be created: " + e.getMessage(), e);
        }
    }

    private static final Set<PosixFilePermission> PRIVATE_DIRECTORY = PosixFilePermissions.fromString("rwx------");

    /** Writes {@code text} to {@code file}, mode 0600, replacing it atomically. */
    static void writePrivate(Path file, String text) {
        try {
            Path temporary = Files.createTempFile(
                    file.getParent(),
                    file.getFileName().toString(),
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Deletes {@code file} if it is there. */
    static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
    }
}
