package io.observatory.proxycore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The files Observatory writes for its core: the work directory (mode 0700) and files in it that only this user may
 * read (mode 0600), written whole before they appear under their name, since they hold the inbounds' passwords.
 */
final class CoreFiles {

    private CoreFiles() {}

    /** The work directory of {@code settings}, created when missing. */
    static Path directory(ProxyCoreSettings settings) {
        Path directory = settings.workPath();
        try {
            if (!Files.isDirectory(directory)) {
                Files.createDirectories(
                        directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("observatory.core.work-directory: " + directory + " cannot be created", e);
        }
    }

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
