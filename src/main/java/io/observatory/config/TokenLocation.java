package io.observatory.config;

import io.observatory.text.Redaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Where a bearer token is kept: a file ({@code token-file}) or an environment variable ({@code token-env}), at most
 * one of them. The token itself is never part of the configuration: validation checks that it is there (the file
 * exists, is readable and is not empty; the variable is set and not empty) and no report prints it. A
 * {@code token-env} value that is not a variable name prints as {@link Redaction#MASK}, since it may be the token
 * pasted in by mistake. Used by {@code observatory.api.auth} and by each mesh witness.
 *
 * @param file     path of a file holding the token (surrounding whitespace ignored), or {@code null}
 * @param variable name of an environment variable holding the token, or {@code null}
 * @param property the full name of the section the two keys belong to, e.g. {@code observatory.api.auth}, for the
 *                 messages of a token that cannot be read at run time
 */
public record TokenLocation(@Nullable String file, @Nullable String variable, String property) {

    private static final String TOKEN_FILE = "token-file";
    private static final String TOKEN_ENV = "token-env";

    /** A portable environment variable name (POSIX): letters, digits and {@code _}, not starting with a digit. */
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Reads blank locations as none and strips the variable name. */
    public TokenLocation {
        file = file == null || file.isBlank() ? null : file;
        variable = variable == null || variable.isBlank() ? null : variable.strip();
    }

    /** Whether a file or a variable is named. */
    public boolean configured() {
        return file != null || variable != null;
    }

    /**
     * Reports a location that cannot give a token, on the sibling properties {@code token-file} and
     * {@code token-env} of the record being validated.
     *
     * @param token what the token is for the messages, e.g. {@code the API token}
     */
    public void check(Problems problems, String token) {
        if (file != null && variable != null) {
            problems.reject(
                    TOKEN_ENV,
                    "set together with " + property + "." + TOKEN_FILE,
                    "at most one token source: remove " + problems.name(TOKEN_FILE) + " or "
                            + problems.name(TOKEN_ENV));
            return;
        }
        if (file != null) {
            validateFile(problems, file, token);
        }
        if (variable != null) {
            validateVariable(problems, variable, token);
        }
    }

    private static void validateFile(Problems problems, String location, String token) {
        Path path = ReadableFiles.regularFile(problems, TOKEN_FILE, location, "file holding " + token);
        if (path == null) {
            return;
        }
        try {
            if (new String(Files.readAllBytes(path), StandardCharsets.UTF_8).isBlank()) {
                problems.reject(TOKEN_FILE, "a file holding " + token + "; the file is empty");
            }
        } catch (IOException e) {
            problems.reject(TOKEN_FILE, "a token file this process may read");
        }
    }

    private static void validateVariable(Problems problems, String name, String token) {
        if (!VARIABLE_NAME.matcher(name).matches()) {
            problems.reject(
                    TOKEN_ENV,
                    Redaction.MASK,
                    "the name of an environment variable: letters, digits and '_', not starting with a digit");
            return;
        }
        String value = problems.environmentVariable(name);
        String holding = "the name of an environment variable holding " + token;
        if (value == null) {
            problems.reject(TOKEN_ENV, name, holding + "; it is not set");
        } else if (value.isBlank()) {
            problems.reject(TOKEN_ENV, name, holding + "; it is empty");
        }
    }
}
