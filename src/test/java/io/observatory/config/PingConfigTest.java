package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PingConfigTest {

    @Test
    void toStringWhenPrintedThenGoDurationsAndNoPassword() {
        PingConfig ping = new PingConfig(
                "https://user:s3cret@example.com/generate_204",
                "http://10.0.0.1/generate_204",
                Duration.ofHours(2),
                10,
                Duration.ofMillis(1_500),
                "GET");

        assertThat(ping)
                .hasToString("PingConfig[destination=https://user:******@example.com/generate_204, "
                        + "connectivity=http://10.0.0.1/generate_204, interval=2h0m0s, sampling=10, timeout=1.5s, "
                        + "httpMethod=GET]");
    }

    @Test
    void toStringWhenNoConnectivityThenSaysNone() {
        PingConfig ping = new PingConfig(
                "https://connectivitycheck.gstatic.com/generate_204",
                "",
                Duration.ofMinutes(1),
                10,
                Duration.ofSeconds(5),
                "HEAD");

        assertThat(ping)
                .hasToString("PingConfig[destination=https://connectivitycheck.gstatic.com/generate_204, "
                        + "connectivity=none, interval=1m0s, sampling=10, timeout=5s, httpMethod=HEAD]");
    }

    @Test
    void effectiveIntervalWhenBelowXraysMinimumThenTenSeconds() {
        PingConfig ping =
                new PingConfig("https://example.com/", null, Duration.ofSeconds(3), 2, Duration.ofSeconds(5), "HEAD");

        assertThat(ping.effectiveInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(ping.cycle()).isEqualTo(Duration.ofSeconds(20));
        assertThat(ping.validity()).isEqualTo(Duration.ofSeconds(40));
    }
}
