package io.observatory.mesh.api;

import io.observatory.config.TokenLocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer token a witness presents to its hubs ({@code observatory.mesh.witness.token-file} / {@code token-env}): a
 * file is read again for every call, so a rotated Secret takes effect at the next report; a file that cannot be read
 * keeps the last good token and says so at WARN once. Never logs the token.
 */
final class BearerToken implements Supplier<String> {

    private static final Logger log = LoggerFactory.getLogger(BearerToken.class);

    private final @Nullable Path file;
    private String last;
    private boolean troubleLogged;

    private BearerToken(@Nullable Path file, String initial) {
        this.file = file;
        this.last = initial;
    }

    /**
     * The token kept at {@code location}, read now.
     *
     * @throws IllegalStateException naming the setting when it cannot be read or is empty
     */
    static BearerToken of(TokenLocation location, Function<String, @Nullable String> environment) {
        if (location.file() != null) {
            Path path = Path.of(location.file());
            try {
                String token = Files.readString(path, StandardCharsets.UTF_8).strip();
                if (token.isEmpty()) {
                    throw new IllegalStateException(
                            location.property() + ".token-file: " + path + " is empty (expected: a bearer token)");
                }
                return new BearerToken(path, token);
            } catch (IOException e) {
                throw new IllegalStateException(
                        location.property() + ".token-file: cannot read " + path + " ("
                                + e.getClass().getSimpleName() + ")",
                        e);
            }
        }
        String name = Objects.requireNonNull(location.variable(), "validated: a file or a variable");
        String value = environment.apply(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(location.property() + ".token-env: environment variable " + name + " is "
                    + (value == null ? "not set" : "blank") + " (expected: a bearer token)");
        }
        return new BearerToken(null, value.strip());
    }

    @Override
    public synchronized String get() {
        if (file == null) {
            return last;
        }
        try {
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!token.isEmpty()) {
                last = token;
                troubleLogged = false;
                return last;
            }
            logTrouble("is empty");
        } catch (IOException e) {
            logTrouble("cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        return last;
    }

    private void logTrouble(String what) {
        if (!troubleLogged) {
            troubleLogged = true;
            log.warn("mesh token file {} {}: the last good token stays in use", file, what);
        }
    }
}
