package io.observatory.config;

import io.observatory.health.ActiveCheck;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class StandardObserverSettingsTest {

    @Test
    void toStringWhenPrintedThenGoDurationAndNoPassword() {
        StandardObserverSettings settings = new StandardObserverSettings(List.of("proxy_"),
                URI.create("http://user:s3cret@10.0.0.1/ready"), Duration.ofHours(2), true,
                ActiveCheck.DEFAULT);

        assertThat(settings).hasToString("StandardObserverSettings[subjectSelector=[proxy_], "
                + "probeUrl=http://user:******@10.0.0.1/ready, probeInterval=2h0m0s, enableConcurrency=true, activeCheck=ActiveCheck[expectedStatus=any, "
                + "thresholds=ActiveHealthPolicy[healthyThreshold=1, unhealthyThreshold=1]]]");
    }
}
