package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.FailedStartup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A gRPC server that cannot listen ends start-up with one line naming the setting, before the first probe. */
@ExtendWith(OutputCaptureExtension.class)
class GrpcListenFailureAnalyzerTest {

    @Test
    void startupWhenPortTakenThenOneLineNamesThePortAndNothingIsProbed(CapturedOutput output) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();

            FailedStartup.run("--spring.grpc.server.port=" + port);

            String expected = "a free port; 127.0.0.1:" + port + " is already in use";
            assertThat(output)
                    .contains(FailedStartup.report(
                            "spring.grpc.server.port: " + port + " (expected: " + expected + ")",
                            "Update spring.grpc.server.port in the application configuration (set in "
                                    + "\"spring.grpc.server.port\" from property source \"commandLineArgs\"). Expected: "
                                    + expected + "."));
            assertThat(output)
                    .doesNotContain(FailedStartup.OBSERVER_STARTED)
                    .doesNotContain("Caused by:")
                    .as("no listener's failure printed before the one line, with its stack")
                    .doesNotContain("EventPublishingRunListener")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void startupWhenAddressNotThisHostsThenOneLineNamesTheAddress(CapturedOutput output) {
        // TEST-NET-1 (RFC 5737): no interface of a test machine has it, and binding to it sends nothing.
        FailedStartup.run("--spring.grpc.server.address=192.0.2.1");

        assertThat(output)
                .contains("spring.grpc.server.address: 192.0.2.1 (expected: an address of one of this "
                        + "host's network interfaces, or unset for all of them)");
        assertThat(output).doesNotContain(FailedStartup.OBSERVER_STARTED);
    }
}
