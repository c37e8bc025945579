package io.observatory.api.auth;

import io.observatory.config.TokenLocation;
import io.observatory.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The bearer token v1 API callers must present, from wherever it is configured; the token itself never leaves this
 * type (no getter, no {@code toString}).
 */
public interface ApiToken {

    /** No token configured: no bearer token matches. */
    ApiToken NONE = new ApiToken() {
        @Override
        public boolean configured() {
            return false;
        }

        @Override
        public boolean matches(String presented) {
            return false;
        }

        @Override
        public String source() {
            return "no token";
        }
    };

    /** Whether a token is configured, so that a presented one can match; false only for {@link #NONE}. */
    default boolean configured() {
        return true;
    }

    /**
     * Whether {@code presented} is the current token; compared in constant time for a given presented length
     * ({@link MessageDigest#isEqual}), so response times do not reveal how much of a guess was right.
     */
    boolean matches(String presented);

    /** Where the token comes from, for log lines, e.g. {@code token file /run/secrets/api-token}; never the token. */
    String source();

    /**
     * The token kept at {@code location}: re-read from the token file as it changes, read once from the token
     * environment variable, or {@link #NONE} when neither is named.
     *
     * @param environment looks an environment variable up by name ({@code System::getenv} in production)
     * @param ticker      paces the token file's change checks
     * @throws IllegalStateException if the token file cannot be read or is empty, or the variable is unset or blank;
     *                               the message names the file or variable, never the token
     */
    static ApiToken of(TokenLocation location, Function<String, @Nullable String> environment, Ticker ticker) {
        String file = location.file();
        if (file != null) {
            return new TokenFile(Path.of(file), location.property() + ".token-file", ticker);
        }
        String name = location.variable();
        if (name != null) {
            String value = environment.apply(name);
            if (value == null || value.isBlank()) {
                throw new IllegalStateException(location.property() + ".token-env: environment variable " + name
                        + " is " + (value == null ? "not set" : "blank") + " (expected: a bearer token)");
            }
            return fixed(value.strip(), "token environment variable " + name);
        }
        return NONE;
    }

    /** A token that never changes, e.g. read from an environment variable at startup, held as UTF-8 bytes. */
    static ApiToken fixed(String token, String source) {
        byte[] expected = token.getBytes(StandardCharsets.UTF_8);
        return new ApiToken() {
            @Override
            public boolean matches(String presented) {
                // The presented token goes first: isEqual's loop then runs as long as it whatever the expected one's
                // length, so response times reveal neither how much of a guess was right nor how long the token is.
                return MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), expected);
            }

            @Override
            public String source() {
                return source;
            }

            @Override
            public String toString() {
                return source;
            }
        };
    }
}
