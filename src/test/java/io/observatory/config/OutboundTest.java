package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OutboundTest {

    @Test
    void describeWhenIpv6ProxyThenAddressInBrackets() {
        assertThat(new Outbound("v6", Protocol.HTTP, "2001:db8::5", 3128, null, null, null).describe())
                .isEqualTo("http [2001:db8::5]:3128");
    }

    @Test
    void describeWhenHostProxyThenHostAndPort() {
        assertThat(new Outbound("de", Protocol.SOCKS, "proxy.example", 1080, "u", "p", null))
                .hasToString("Outbound[de, socks proxy.example:1080, user u]");
    }
}
