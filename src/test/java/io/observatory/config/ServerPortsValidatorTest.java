package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.FailedStartup;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The servers' ports and addresses are checked as Spring Boot binds them: one line, before anything listens. */
@ExtendWith(OutputCaptureExtension.class)
class ServerPortsValidatorTest {

    private static final String GRPC = "0-65535; 0 picks a free port";
    private static final String HTTP = "0-65535, or -1 for no HTTP server; 0 picks a free port";
    private static final String ADDRESS = "an IP address or a resolvable host name, e.g. 127.0.0.1";

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "spring.grpc.server.port    | 90900 | " + GRPC,
                "spring.grpc.server.port    | -1    | " + GRPC,
                "server.port                | -2    | " + HTTP,
                "server.port                | 65536 | " + HTTP,
                "management.server.port     | 70000 | " + HTTP,
                "spring.grpc.server.address | [::1  | " + ADDRESS,
                "server.address             | [::1  | " + ADDRESS
            })
    void startupWhenServerSettingOutOfRangeThenOneLineBeforeAnythingListens(
            String property, String value, String expected, CapturedOutput output) {
        FailedStartup.run("--" + property + "=" + value);

        assertThat(output)
                .contains(FailedStartup.report(
                        property + ": " + value + " (expected: " + expected + ")",
                        "Update " + property + " in the application configuration (set in \"" + property
                                + "\" from property source \"commandLineArgs\"). Expected: " + expected + "."));
        assertThat(output).doesNotContain(FailedStartup.OBSERVER_STARTED).doesNotContain("Netty started");
    }
}
