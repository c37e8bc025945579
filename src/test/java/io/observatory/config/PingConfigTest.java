package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PingConfigTest {

    @Test
    void cycleAndValidityWhenLimitsThenWithinLongNanoseconds() {
        PingConfig ping = new PingConfig(PingConfig.DEFAULT_DESTINATION, null, PingConfig.MAX_INTERVAL,
                PingConfig.MAX_SAMPLING, PingConfig.MAX_TIMEOUT, "HEAD");

        assertThat(ping.cycle()).isEqualTo(Duration.ofDays(1_000));
        assertThat(ping.validity().toNanos()).isEqualTo(2_000L * 24 * 3_600 * 1_000_000_000);
    }

    @Test
    void toStringWhenPrintedThenGoDurationsAndNoPassword() {
        PingConfig ping = new PingConfig(URI.create("https://user:s3cret@example.com/generate_204"),
                URI.create("http://10.0.0.1/generate_204"), Duration.ofHours(2), 10, Duration.ofMillis(1_500), "GET");

        assertThat(ping).hasToString("PingConfig[destination=https://user:******@example.com/generate_204, "
                + "connectivity=http://10.0.0.1/generate_204, interval=2h0m0s, sampling=10, timeout=1.5s, "
                + "httpMethod=GET]");
    }

    @Test
    void toStringWhenNoConnectivityThenSaysNone() {
        PingConfig ping = new PingConfig(PingConfig.DEFAULT_DESTINATION, null, PingConfig.DEFAULT_INTERVAL,
                PingConfig.DEFAULT_SAMPLING, PingConfig.DEFAULT_TIMEOUT, PingConfig.DEFAULT_HTTP_METHOD);

        assertThat(ping).hasToString("PingConfig[destination=https://connectivitycheck.gstatic.com/generate_204, "
                + "connectivity=none, interval=1m0s, sampling=10, timeout=5s, httpMethod=HEAD]");
    }
}
