package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Configs;
import org.junit.jupiter.api.Test;

class ObservatoryConfigTest {

    @Test
    void bindWhenStandardAndBurstBothSetThenOnlyOneObserverError() {
        assertThat(Configs.rejection(
                        "standard.subject-selector=proxy_", "burst.subject-selector=proxy_", "burst.ping-config="))
                .isEqualTo("observatory.burst: set together with observatory.standard (expected: only one observer "
                        + "can be active: remove observatory.standard or observatory.burst)");
    }

    @Test
    void bindWhenNoObserverThenWarnsAndServesEmptyObservation() {
        ObservatoryConfigBinder.Bound bound = Configs.bound("outbounds[0].tag=direct", "outbounds[0].protocol=direct");

        assertThat(bound.config().standard()).isNull();
        assertThat(bound.config().burst()).isNull();
        assertThat(bound.warnings())
                .containsExactly("no observer configured: set observatory.standard or "
                        + "observatory.burst; serving an empty observation");
    }

    @Test
    void bindWhenSeveralSectionsBrokenThenTheFirstInDeclarationOrderIsReported() {
        assertThat(Configs.rejection(
                        "outbounds[0].tag=",
                        "outbounds[0].protocol=direct",
                        "probe.max-concurrent=0",
                        "standard.healthy-threshold=0"))
                .isEqualTo("observatory.outbounds[0].tag: (empty) (expected: a non-blank tag)");
        assertThat(Configs.rejection("outbounds[0].tag=", "outbounds[0].protocol=socks", "outbounds[0].port=70000"))
                .isEqualTo("observatory.outbounds[0].tag: (empty) (expected: a non-blank tag)");
    }
}
