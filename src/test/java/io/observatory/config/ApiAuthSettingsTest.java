package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.observatory.testing.Configs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApiAuthSettingsTest {

    private static final String TOKEN = "s3cr3t-t0ken";

    @TempDir
    Path directory;

    private static String rejectedWithoutToken(Map<String, String> environment, String... properties) {
        String line = Configs.rejection(environment, properties);
        assertThat(line).doesNotContain(TOKEN);
        return line;
    }

    @Test
    void bindWhenNotSetThenNoTokenAndReadsOpen() {
        assertThat(Configs.of().api().auth()).isEqualTo(new ApiAuthSettings(null, null, false, false));
    }

    @Test
    void bindWhenTokenFileHoldsTokenThenPathKeptAndTokenNot() throws IOException {
        Path file = Files.writeString(directory.resolve("api-token"), TOKEN + "\n");

        ObservatoryConfig config = Configs.of("api.auth.token-file=" + file, "api.auth.require-for-reads=true");

        assertThat(config.api().auth()).isEqualTo(new ApiAuthSettings(file.toString(), null, true, false));
        assertThat(config.toString()).doesNotContain(TOKEN);
    }

    @Test
    void bindWhenTokenEnvSetThenNameKeptAndTokenNot() {
        ObservatoryConfig config = Configs.bound(
                        Map.of("OBSERVATORY_API_TOKEN", TOKEN), "api.auth.token-env=OBSERVATORY_API_TOKEN")
                .config();

        assertThat(config.api().auth()).isEqualTo(new ApiAuthSettings(null, "OBSERVATORY_API_TOKEN", false, false));
        assertThat(config.toString()).doesNotContain(TOKEN);
    }

    @Test
    void bindWhenTokenKeysBlankThenUnset() {
        assertThat(Configs.of("api.auth.token-file= ", "api.auth.token-env=")
                        .api()
                        .auth())
                .isEqualTo(new ApiAuthSettings(null, null, false, false));
    }

    @Test
    void bindWhenBothTokenKeysSetThenOneLineNamesBoth() throws IOException {
        Path file = Files.writeString(directory.resolve("api-token"), TOKEN);

        assertThat(rejectedWithoutToken(
                        Map.of("OBSERVATORY_API_TOKEN", TOKEN),
                        "api.auth.token-file=" + file,
                        "api.auth.token-env=OBSERVATORY_API_TOKEN"))
                .isEqualTo("observatory.api.auth.token-env: set together "
                        + "with observatory.api.auth.token-file (expected: at most one token source: remove "
                        + "observatory.api.auth.token-file or observatory.api.auth.token-env)");
    }

    @Test
    void bindWhenTokenFileMissingOrDirectoryThenOneLineNamesPath() {
        Path missing = directory.resolve("missing-token");

        assertThat(rejectedWithoutToken(Map.of(), "api.auth.token-file=" + missing))
                .isEqualTo("observatory.api.auth.token-file: " + missing
                        + " (expected: the path of an existing file holding the API token)");
        assertThat(rejectedWithoutToken(Map.of(), "api.auth.token-file=" + directory))
                .isEqualTo("observatory.api.auth.token-file: " + directory
                        + " (expected: the path of an existing file holding the API token)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", " ", "\n", " \t\r\n\u2003"})
    void bindWhenTokenFileEmptyOrWhitespaceThenOneLineSaysEmpty(String content) throws IOException {
        Path file = Files.writeString(directory.resolve("api-token"), content);

        assertThat(rejectedWithoutToken(Map.of(), "api.auth.token-file=" + file))
                .isEqualTo("observatory.api.auth.token-file: " + file
                        + " (expected: a file holding the API token; the file is " + "empty)");
    }

    @Test
    void bindWhenTokenFileUnreadableThenOneLineNamesPathNotToken() throws IOException {
        Path file = Files.writeString(directory.resolve("api-token"), TOKEN);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        assumeFalse(Files.isReadable(file), "this user reads files whatever their permissions (root)");

        assertThat(rejectedWithoutToken(Map.of(), "api.auth.token-file=" + file))
                .isEqualTo(
                        "observatory.api.auth.token-file: " + file + " (expected: a token file this process may read)");
    }

    @Test
    void bindWhenTokenEnvUnsetThenOneLineNamesVariable() {
        assertThat(rejectedWithoutToken(Map.of(), "api.auth.token-env=OBSERVATORY_API_TOKEN"))
                .isEqualTo(
                        "observatory.api.auth.token-env: OBSERVATORY_API_TOKEN (expected: the name of an environment "
                                + "variable holding the API token; it is not set)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "  ", "\n"})
    void bindWhenTokenEnvBlankThenOneLineNamesVariable(String value) {
        assertThat(rejectedWithoutToken(
                        Map.of("OBSERVATORY_API_TOKEN", value), "api.auth.token-env=OBSERVATORY_API_TOKEN"))
                .isEqualTo("observatory.api.auth.token-env: "
                        + "OBSERVATORY_API_TOKEN (expected: the name of an environment variable holding the API token; it "
                        + "is empty)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {TOKEN, "eyJhbGciOiJIUzI1NiJ9.e30.sig", "1TOKEN", "API-TOKEN", "abc+/=="})
    void bindWhenTokenEnvIsNoVariableNameThenOneLineWithValueMasked(String value) {
        String line = Configs.rejection(Map.of(value, "x"), "api.auth.token-env=" + value);

        assertThat(line)
                .isEqualTo("observatory.api.auth.token-env: ****** (expected: the name of an environment "
                        + "variable: letters, digits and '_', not starting with a digit)");
        assertThat(line).doesNotContain(value);
    }
}
