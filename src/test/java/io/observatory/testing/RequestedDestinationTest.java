package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.testing.RequestedDestination.AddressType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestedDestinationTest {

    @ParameterizedTest
    @CsvSource({
        "localhost:8443, DOMAIN, localhost, 8443",
        "127.0.0.1:80,   IPV4,   127.0.0.1, 80",
        "[::1]:443,      IPV6,   ::1,       443",
        "host:0,         DOMAIN, host,      0",
        "host:65535,     DOMAIN, host,      65535",
    })
    void ofAuthorityWhenWellFormedThenTypedAsWritten(String authority, AddressType type, String host, int port) {
        RequestedDestination destination = RequestedDestination.ofAuthority(authority);

        assertThat(destination).isEqualTo(new RequestedDestination(type, host, port));
        assertThat(destination.hostAndPort()).isEqualTo(authority);
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "localhost:", ":80", "host:65536", "host:-1", "host:http"})
    void ofAuthorityWhenMalformedThenRejected(String authority) {
        assertThatThrownBy(() -> RequestedDestination.ofAuthority(authority))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CONNECT target: " + authority);
    }
}
