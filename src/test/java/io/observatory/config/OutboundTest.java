package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Configs;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutboundTest {

    private static final String EXPECTED_URL =
            "(expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)";

    /** The properties of one outbound at {@code index}, e.g. {@code outbound(0, "tag=a", "protocol=direct")}. */
    private static String[] outbound(int index, String... keys) {
        String[] properties = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            properties[i] = "outbounds[" + index + "]." + keys[i];
        }
        return properties;
    }

    private static String rejected(String... keys) {
        return Configs.rejection(outbound(0, keys));
    }

    @Test
    void bindWhenTcpOrTlsThenTheHandshakeNeedsAddressAndPortAndNothingOfAProxy() {
        assertThat(rejected("tag=e", "protocol=tcp", "address=198.51.100.7"))
                .isEqualTo("observatory.outbounds[0].port: (none) (expected: 1-65535)");
        assertThat(rejected("tag=e", "protocol=tcp", "address=198.51.100.7", "port=443", "username=u", "password=p"))
                .isEqualTo("observatory.outbounds[0].username: u (expected: nothing for protocol tcp, whose probe is"
                        + " the handshake itself)");
        assertThat(rejected("tag=e", "protocol=tcp", "address=198.51.100.7", "port=443", "sni=cdn.example.com"))
                .isEqualTo("observatory.outbounds[0].sni: cdn.example.com (expected: nothing for protocol tcp: only a"
                        + " tls outbound sends a server name)");
        assertThat(rejected("tag=e", "protocol=tls", "address=198.51.100.7", "port=443", "sni=198.51.100.7"))
                .isEqualTo("observatory.outbounds[0].sni: 198.51.100.7 (expected: a host name (an IP address is never"
                        + " sent as a server name))");
        assertThat(rejected("tag=e", "protocol=tls", "address=198.51.100.7", "port=443", "probe-url=http://x.test/"))
                .isEqualTo("observatory.outbounds[0].probe-url: http://x.test/ (expected: nothing for protocol tls,"
                        + " whose probe is the handshake itself)");
        assertThat(rejected("tag=e", "protocol=xray"))
                .isEqualTo("observatory.outbounds[0].protocol: XRAY (expected: one of direct, http, socks, tcp, tls"
                        + " (xray is for mesh entry points; the outbounds of an Xray configuration are probed from"
                        + " observatory.core.config-file))");
    }

    @Test
    void bindWhenTlsThenServerNameIsTheSniElseAHostNameAddressAndTheProbeUrlNamesTheServer() {
        Outbound named = Configs.of(outbound(0, "tag=e", "protocol=tls", "address=edge.example.com", "port=443"))
                .outbounds()
                .get(0);
        Outbound byIp = Configs.of(
                        outbound(0, "tag=e", "protocol=tls", "address=198.51.100.7", "port=443", "alpn=h2,http/1.1"))
                .outbounds()
                .get(0);

        assertThat(named.serverName()).isEqualTo("edge.example.com");
        assertThat(byIp.serverName()).isNull();
        assertThat(byIp.alpn()).containsExactly("h2", "http/1.1");
        assertThat(byIp.probeUrlOr(URI.create("http://ignored.test/"))).hasToString("tls://198.51.100.7:443");
        assertThat(byIp.describe()).isEqualTo("tls 198.51.100.7:443");
    }

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

    @Test
    void bindWhenProxiesAndDirectThenOutboundsInOrder() {
        ObservatoryConfig config = Configs.yaml("""
                observatory:
                  outbounds:
                    - { tag: proxy_de, protocol: SOCKS, address: 10.0.0.5, port: 1080, username: u, password: p }
                    - { tag: proxy_us, protocol: http, address: 10.0.0.6, port: 3128,
                        probe-url: ' http://health.internal/ready ' }
                    - { tag: direct, protocol: direct }
                """);

        assertThat(config.outbounds())
                .containsExactly(
                        new Outbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080, "u", "p", null),
                        new Outbound(
                                "proxy_us",
                                Protocol.HTTP,
                                "10.0.0.6",
                                3128,
                                null,
                                null,
                                "http://health.internal/ready"),
                        Outbound.direct("direct"));
        assertThat(config.outbounds().get(1).probeUrlOr(URI.create("http://observer/")))
                .isEqualTo(URI.create("http://health.internal/ready"));
    }

    @Test
    void bindWhenTagEmptyThenError() {
        assertThat(rejected("tag=", "protocol=direct"))
                .isEqualTo("observatory.outbounds[0].tag: (empty) (expected: a non-blank tag)");
    }

    @Test
    void bindWhenTagMissingThenErrorNamesTheSecondOutbound() {
        String[] first = outbound(0, "tag=direct", "protocol=direct");
        String[] second = outbound(1, "protocol=direct");
        assertThat(Configs.rejection(first[0], first[1], second[0]))
                .isEqualTo("observatory.outbounds[1].tag: (none) (expected: a non-blank tag)");
    }

    @Test
    void bindWhenTagDuplicatedThenErrorNamesBothIndexes() {
        assertThat(Configs.yamlRejection("""
                observatory:
                  outbounds:
                    - { tag: proxy_de, protocol: socks, address: 10.0.0.5, port: 1080 }
                    - { tag: direct, protocol: direct }
                    - { tag: proxy_de, protocol: http, address: 10.0.0.6, port: 3128 }
                """))
                .isEqualTo("observatory.outbounds[2].tag: proxy_de "
                        + "(expected: a unique tag; observatory.outbounds[0].tag is also proxy_de)");
    }

    @Test
    void bindWhenProtocolMissingThenErrorListsProtocols() {
        assertThat(rejected("tag=proxy_de", "address=10.0.0.5", "port=1080"))
                .isEqualTo(
                        "observatory.outbounds[0].protocol: (none) (expected: one of direct, http, socks, tcp, tls, xray)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {"'a\nb'      | \"a\\nb\"", "'proxy\tde' | \"proxy\\tde\""})
    void bindWhenTagHasControlCharacterThenOneLineRejectsIt(String tag, String printed) {
        assertThat(rejected("tag=" + tag, "protocol=direct"))
                .isEqualTo(
                        "observatory.outbounds[0].tag: " + printed + " (expected: a tag without control characters)");
    }

    @Test
    void bindWhenProxyWithoutAddressThenError() {
        assertThat(rejected("tag=proxy_de", "protocol=socks", "port=1080"))
                .isEqualTo("observatory.outbounds[0].address: (none) "
                        + "(expected: the proxy's host name or IP address, without a port)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "127.0.0.1:1080",
        "proxy.example:1080",
        "[::1]:1080",
        "10.0.0.256",
        "1.2.3",
        "proxy host",
        "http://10.0.0.5",
        "[proxy.example]"
    })
    void bindWhenAddressIsNotHostOrIpThenOneLineSaysWithoutPort(String address) {
        assertThat(rejected("tag=proxy_de", "protocol=socks", "address=" + address, "port=1080"))
                .isEqualTo("observatory.outbounds[0].address: " + address
                        + " (expected: the proxy's host name or IP address, without a port)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "10.0.0.5, 10.0.0.5",
        "proxy-1.example.com, proxy-1.example.com",
        "my_proxy.internal, my_proxy.internal",
        "localhost, localhost",
        "::1, ::1",
        "[::1], ::1",
        "[2001:db8::5], 2001:db8::5",
        "fe80::1%eth0, fe80::1%eth0"
    })
    void bindWhenAddressIsHostOrIpThenKeptWithoutBrackets(String address, String kept) {
        assertThat(Configs.of(outbound(0, "tag=proxy_de", "protocol=socks", "address=" + address, "port=1080"))
                        .outbounds()
                        .get(0)
                        .address())
                .isEqualTo(kept);
    }

    @Test
    void bindWhenPortAboveRangeThenErrorNamesTheSecondOutbound() {
        String[] first = outbound(0, "tag=direct", "protocol=direct");
        String[] second = outbound(1, "tag=proxy_us", "protocol=http", "address=10.0.0.6", "port=70000");
        assertThat(Configs.rejection(first[0], first[1], second[0], second[1], second[2], second[3]))
                .isEqualTo("observatory.outbounds[1].port: 70000 (expected: 1-65535)");
    }

    @ParameterizedTest(name = "port={0}")
    @CsvSource({"0, 0", "'', (none)"})
    void bindWhenProxyPortZeroOrMissingThenError(String port, String printed) {
        String[] keys = port.isEmpty()
                ? new String[] {"tag=proxy_us", "protocol=http", "address=10.0.0.6"}
                : new String[] {"tag=proxy_us", "protocol=http", "address=10.0.0.6", "port=" + port};
        assertThat(rejected(keys)).isEqualTo("observatory.outbounds[0].port: " + printed + " (expected: 1-65535)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "address=10.0.0.5 | observatory.outbounds[0].address: 10.0.0.5",
                "port=1080        | observatory.outbounds[0].port: 1080",
                "password=s3cret  | observatory.outbounds[0].password: ******"
            })
    void bindWhenDirectWithProxySettingThenErrorWithSecretsMasked(String setting, String line) {
        assertThat(rejected("tag=direct", "protocol=direct", setting))
                .isEqualTo(line + " (expected: nothing for protocol direct, which uses no proxy)")
                .doesNotContain("s3cret");
    }

    @Test
    void bindWhenPasswordEmptyWithUsernameThenErrorSaysEmptyNotMasked() {
        assertThat(rejected(
                        "tag=proxy_de", "protocol=socks", "address=10.0.0.5", "port=1080", "username=u", "password="))
                .isEqualTo("observatory.outbounds[0].password: (empty) "
                        + "(expected: a password, since observatory.outbounds[0].username is set)");
    }

    @Test
    void bindWhenUsernameAndNoPasswordKeyThenSaysNone() {
        assertThat(rejected("tag=proxy_de", "protocol=socks", "address=10.0.0.5", "port=1080", "username=u"))
                .isEqualTo("observatory.outbounds[0].password: (none) "
                        + "(expected: a password, since observatory.outbounds[0].username is set)");
    }

    @Test
    void bindWhenPasswordWithoutUsernameThenErrorDoesNotPrintPassword() {
        assertThat(rejected("tag=proxy_de", "protocol=socks", "address=10.0.0.5", "port=1080", "password=s3cret"))
                .isEqualTo("observatory.outbounds[0].username: (none) "
                        + "(expected: a username, since observatory.outbounds[0].password is set)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ftp://10.0.0.1/health                | ftp://10.0.0.1/health " + EXPECTED_URL,
                "http://127.0.0.1:99999/              | http://127.0.0.1:99999/ (expected: port 1-65535)",
                "http://127.0.0.1:0/                  | http://127.0.0.1:0/ (expected: port 1-65535)",
                "https://127.0.0.1:99999999999/health | https://127.0.0.1:99999999999/health (expected: port 1-65535)",
                "http://:80/                          | http://:80/ " + EXPECTED_URL,
                "http://my_host.example/              | http://my_host.example/ (expected: a host name of letters, "
                        + "digits, '-' and '.' ('_' is not supported in probe URLs))",
                "http://user:s3cret@127.0.0.1:0/      | http://user:******@127.0.0.1:0/ (expected: port 1-65535)",
                "http://user:s3cret@ho st/            | http://user:******@ho st/ " + EXPECTED_URL
            })
    void bindWhenProbeUrlBadThenOneLineSaysWhatIsWrongWithThePasswordMasked(String url, String line) {
        assertThat(rejected("tag=direct", "protocol=direct", "probe-url=" + url))
                .isEqualTo("observatory.outbounds[0].probe-url: " + line)
                .doesNotContain("s3cret");
    }

    @Test
    void bindWhenSocksCredentialLongerThan255BytesThenOneLineNamingRfc1929() {
        String expected = " (expected: at most 255 bytes (UTF-8) for a SOCKS5 proxy (RFC 1929))";
        String user = "u".repeat(256);

        assertThat(rejected(
                        "tag=s", "protocol=socks", "address=127.0.0.1", "port=1080", "username=" + user, "password=p"))
                .isEqualTo("observatory.outbounds[0].username: " + user + expected);
        assertThat(rejected(
                        "tag=s",
                        "protocol=socks",
                        "address=127.0.0.1",
                        "port=1080",
                        "username=u",
                        "password=" + "\u00e9".repeat(128)))
                .isEqualTo("observatory.outbounds[0].password: ******" + expected);
        assertThat(Configs.of(outbound(
                                0,
                                "tag=h",
                                "protocol=http",
                                "address=127.0.0.1",
                                "port=3128",
                                "username=" + user,
                                "password=p"))
                        .outbounds()
                        .get(0)
                        .username())
                .isEqualTo(user);
    }

    @Test
    void bindWhenProbeUrlPortInRangeThenKept() {
        assertThat(Configs.of(outbound(0, "tag=direct", "protocol=direct", "probe-url=http://127.0.0.1:65535/"))
                        .outbounds()
                        .get(0)
                        .probeUrl())
                .isEqualTo("http://127.0.0.1:65535/");
    }
}
