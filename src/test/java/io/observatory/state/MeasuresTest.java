package io.observatory.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.testing.Configs;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class MeasuresTest {

    /** SHA-256 of "standard\nhttp://127.0.0.1:8080/generate_204\nSOCKS\n127.0.0.1\n1080\nuser", 8 bytes. */
    private static final String SOCKS_WITH_USER = "992fb3bb1b5d59ee";
    /** SHA-256 of "standard\nhttp://127.0.0.1:8080/generate_204\nDIRECT\n\n\n", 8 bytes. */
    private static final String DIRECT = "da8fa80691f81008";

    /**
     * The hash is part of the state file's format: a build that computes another one for the same configuration
     * restores nothing an older build wrote. Pinned, so that a change is a decision and not a side effect (of how an
     * outbound prints in logs, say); the proxy's password is not part of it.
     */
    @Test
    void ofWhenTheSameConfigurationThenTheHashOfThisFormat() {
        ObservatoryConfig config = Configs.of(
                "outbounds[0].tag=proxy_a",
                "outbounds[0].protocol=socks",
                "outbounds[0].address=127.0.0.1",
                "outbounds[0].port=1080",
                "outbounds[0].username=user",
                "outbounds[0].password=secret",
                "outbounds[1].tag=proxy_b",
                "outbounds[1].protocol=direct",
                "standard.subject-selector[0]=proxy_",
                "standard.probe-url=http://127.0.0.1:8080/generate_204");

        assertThat(config.outbounds())
                .extracting(outbound ->
                        HexFormat.of().formatHex(Measures.of(config, outbound).orElseThrow()))
                .containsExactly(SOCKS_WITH_USER, DIRECT);
    }
}
