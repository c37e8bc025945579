package io.observatory.config;

import io.observatory.text.Redaction;
import io.observatory.config.ObservatoryProperties.ApiAuthProperties;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Turns {@code observatory.api.auth} into {@link ApiAuthSettings}, checking that the configured token is there: the
 * file exists, is readable and is not empty, or the environment variable is set and not empty. The token is not kept:
 * the API layer reads it when it needs it.
 *
 * <p>No error line prints the token. A file is named by its path and a variable by its name; a {@code token-env}
 * value that is not a variable name prints as {@link Redaction#MASK}, since it may be the token pasted in by mistake.
 */
final class ApiAuthSettingsValidator {

    private static final String TOKEN_FILE = "observatory.api.auth.token-file";
    private static final String TOKEN_ENV = "observatory.api.auth.token-env";

    /** A portable environment variable name (POSIX): letters, digits and {@code _}, not starting with a digit. */
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ApiAuthSettingsValidator() {
    }

    /**
     * Validates {@code observatory.api.auth}; a blank {@code token-file} or {@code token-env} counts as unset.
     *
     * @param environment looks up an environment variable by name, {@code null} when unset
     *     ({@link System#getenv(String)} in production)
     * @throws InvalidConfigException when both token keys are set, or the token they point at is missing or empty,
     *     e.g. {@code observatory.api.auth.token-env: API_TOKEN (expected: the name of an environment variable
     *     holding the API token; it is not set)}
     */
    static ApiAuthSettings validate(ApiAuthProperties auth, Function<String, String> environment) {
        boolean hasFile = !ConfigChecks.isBlank(auth.getTokenFile());
        boolean hasEnv = !ConfigChecks.isBlank(auth.getTokenEnv());
        if (hasFile && hasEnv) {
            throw new InvalidConfigException(TOKEN_ENV, "set together with " + TOKEN_FILE,
                    "at most one token source: remove " + TOKEN_FILE + " or " + TOKEN_ENV);
        }
        Optional<Path> tokenFile = hasFile ? Optional.of(tokenFile(auth.getTokenFile())) : Optional.empty();
        Optional<String> tokenEnv = hasEnv ? Optional.of(tokenEnv(auth.getTokenEnv(), environment))
                : Optional.empty();
        return new ApiAuthSettings(tokenFile, tokenEnv, auth.isRequireForReads());
    }

    private static Path tokenFile(String location) {
        Path path = ConfigChecks.regularFile(TOKEN_FILE, location, "file holding the API token");
        boolean blank;
        try (Reader reader = new InputStreamReader(Files.newInputStream(path), StandardCharsets.UTF_8)) {
            blank = isBlank(reader);
        } catch (IOException e) {
            throw new InvalidConfigException(TOKEN_FILE, location, "a token file this process may read", e);
        }
        if (blank) {
            throw new InvalidConfigException(TOKEN_FILE, location, "a file holding the API token; the file is empty");
        }
        return path;
    }

    private static String tokenEnv(String text, Function<String, String> environment) {
        String name = text.strip();
        if (!VARIABLE_NAME.matcher(name).matches()) {
            throw new InvalidConfigException(TOKEN_ENV, Redaction.MASK,
                    "the name of an environment variable: letters, digits and '_', not starting with a digit");
        }
        String value = environment.apply(name);
        if (value == null) {
            throw new InvalidConfigException(TOKEN_ENV, name,
                    "the name of an environment variable holding the API token; it is not set");
        }
        if (value.isBlank()) {
            throw new InvalidConfigException(TOKEN_ENV, name,
                    "the name of an environment variable holding the API token; it is empty");
        }
        return name;
    }

    /**
     * Whether the text holds only whitespace ({@link Character#isWhitespace}, what {@link String#strip()} removes);
     * reads only up to the first other character, so a large file is not read whole.
     */
    private static boolean isBlank(Reader reader) throws IOException {
        char[] buffer = new char[256];
        for (int read = reader.read(buffer); read != -1; read = reader.read(buffer)) {
            for (int i = 0; i < read; i++) {
                if (!Character.isWhitespace(buffer[i])) {
                    return false;
                }
            }
        }
        return true;
    }
}
