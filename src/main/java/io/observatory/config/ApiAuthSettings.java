package io.observatory.config;

import io.observatory.text.Redaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * {@code observatory.api.auth}: who may call the v1 API. Writes ({@code ReportOutcomes}) need the bearer token kept
 * where this says, or a client certificate the gRPC server's mTLS verified; reads are open unless
 * {@code requireForReads}. The token itself is never part of the configuration: validation checks that it is there
 * (the file exists, is readable and is not empty; the variable is set and not empty) and no report prints it. A
 * {@code token-env} value that is not a variable name prints as {@link Redaction#MASK}, since it may be the token
 * pasted in by mistake.
 *
 * @param tokenFile       path of a file holding the bearer token (surrounding whitespace ignored), re-read when it
 *                        changes; blank means none. At most one of token-file and token-env. Default: none
 * @param tokenEnv        name of an environment variable holding the bearer token (letters, digits and '_', not
 *                        starting with a digit); blank means none. At most one of token-file and token-env. Default:
 *                        none
 * @param requireForReads whether reads need the same credentials as writes. Default: false, reads are open
 */
public record ApiAuthSettings(@Nullable String tokenFile, @Nullable String tokenEnv, boolean requireForReads)
        implements CrossFieldValidated {

    private static final String TOKEN_FILE = "token-file";
    private static final String TOKEN_ENV = "token-env";
    private static final String HOLDING = "the name of an environment variable holding the API token";

    /** A portable environment variable name (POSIX): letters, digits and {@code _}, not starting with a digit. */
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Reads blank locations as none and strips the variable name. */
    public ApiAuthSettings {
        tokenFile = tokenFile == null || tokenFile.isBlank() ? null : tokenFile;
        tokenEnv = tokenEnv == null || tokenEnv.isBlank() ? null : tokenEnv.strip();
    }

    @Override
    public void validate(Violations violations) {
        if (tokenFile != null && tokenEnv != null) {
            violations.reject(TOKEN_ENV, "set together with observatory.api.auth.token-file",
                    "at most one token source: remove observatory.api.auth.token-file or observatory.api.auth.token-env");
            return;
        }
        if (tokenFile != null) {
            validateTokenFile(violations, tokenFile);
        }
        if (tokenEnv != null) {
            validateTokenEnv(violations, tokenEnv);
        }
    }

    private static void validateTokenFile(Violations violations, String location) {
        Path path = ReadableFiles.regularFile(violations, TOKEN_FILE, location, "file holding the API token");
        if (path == null) {
            return;
        }
        try {
            if (new String(Files.readAllBytes(path), StandardCharsets.UTF_8).isBlank()) {
                violations.reject(TOKEN_FILE, "a file holding the API token; the file is empty");
            }
        } catch (IOException e) {
            violations.reject(TOKEN_FILE, "a token file this process may read");
        }
    }

    private static void validateTokenEnv(Violations violations, String name) {
        if (!VARIABLE_NAME.matcher(name).matches()) {
            violations.reject(TOKEN_ENV, Redaction.MASK,
                    "the name of an environment variable: letters, digits and '_', not starting with a digit");
            return;
        }
        String value = violations.environmentVariable(name);
        if (value == null) {
            violations.reject(TOKEN_ENV, name, HOLDING + "; it is not set");
        } else if (value.isBlank()) {
            violations.reject(TOKEN_ENV, name, HOLDING + "; it is empty");
        }
    }
}
