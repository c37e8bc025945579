package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Configs;
import io.observatory.testing.TestTls;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProbeSettingsTest {

    @TempDir
    Path directory;

    private static ProbeSettings probe(String... properties) {
        return Configs.of(properties).probe();
    }

    @Test
    void bindWhenDefaultsThenNoExtraHeadersAndDefaultConcurrency() {
        ProbeSettings probe = probe();

        assertThat(probe.maxConcurrent()).isEqualTo(1024);
        assertThat(probe.trustedCertificatesPath()).isNull();
        assertThat(probe.headers()).isEmpty();
    }

    @Test
    void bindWhenMaxConcurrentZeroThenError() {
        assertThat(Configs.rejection("probe.max-concurrent=0"))
                .isEqualTo("observatory.probe.max-concurrent: 0 (expected: at least 1)");
    }

    @Test
    void bindWhenTrustedCertificatesHoldCertificateThenPath() {
        Path pem = TestTls.certificatePath();

        assertThat(probe("probe.trusted-certificates=" + pem).trustedCertificatesPath())
                .isEqualTo(pem);
    }

    @Test
    void bindWhenTrustedCertificatesEmptyThenOneLineFoundNone() throws IOException {
        Path empty = Files.createFile(directory.resolve("empty.pem"));

        assertThat(Configs.rejection("probe.trusted-certificates=" + empty))
                .isEqualTo("observatory.probe.trusted-certificates: " + empty
                        + " (expected: a PEM file with at least one X.509 certificate; found none)");
    }

    @Test
    void bindWhenTrustedCertificatesIsRandomTextThenOneLineParseError() throws IOException {
        Path text = Files.writeString(directory.resolve("notes.pem"), "not a certificate\nat all\n");

        assertThat(Configs.rejection("probe.trusted-certificates=" + text))
                .isEqualTo("observatory.probe.trusted-certificates: " + text + " (expected: a PEM file with at "
                        + "least one X.509 certificate; parse error: " + parseError(text) + ")");
    }

    @Test
    void bindWhenTrustedCertificatesIsPrivateKeyOnlyThenOneLineParseError() {
        Path key = TestTls.privateKeyPath();

        assertThat(Configs.rejection("probe.trusted-certificates=" + key))
                .isEqualTo("observatory.probe.trusted-certificates: " + key + " (expected: a PEM file with at "
                        + "least one X.509 certificate; parse error: " + parseError(key) + ")")
                .doesNotContain("\n");
    }

    /** The JDK's own one-line message for the file, so that the expectation does not depend on the JDK. */
    private static String parseError(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException | CertificateException e) {
            return e.getMessage().replaceAll("\\s+", " ").strip();
        }
        throw new AssertionError(file + " parsed");
    }

    @Test
    void bindWhenTrustedCertificatesMissingOrDirectoryThenError() {
        String missing = directory.resolve("missing.pem").toString();

        assertThat(Configs.rejection("probe.trusted-certificates=" + missing))
                .isEqualTo("observatory.probe.trusted-certificates: " + missing
                        + " (expected: the path of an existing PEM file)");
        assertThat(Configs.rejection("probe.trusted-certificates=" + directory))
                .isEqualTo("observatory.probe.trusted-certificates: " + directory
                        + " (expected: the path of an existing PEM file)");
    }

    @Test
    void bindWhenHeaderNameHasSpaceThenError() {
        assertThat(Configs.rejection("probe.headers[X Probe]=1"))
                .isEqualTo("observatory.probe.headers: X Probe "
                        + "(expected: header names made of letters, digits and !#$%&'*+-.^_`|~)");
    }

    @Test
    void bindWhenSecretHeaderValueHasLineBreakThenTheValueIsMasked() {
        assertThat(Configs.rejection("probe.headers.Authorization=Bearer s3cret\nx"))
                .isEqualTo(
                        "observatory.probe.headers[Authorization]: ****** (expected: a header value of visible ASCII characters, with spaces and tabs inside)");
    }

    @Test
    void bindWhenHeaderValueHasLineBreakThenErrorStaysOneLine() {
        assertThat(Configs.rejection("probe.headers.X-Probe=a\r\nInjected: 1"))
                .isEqualTo("observatory.probe.headers[X-Probe]: \"a\\r\\nInjected: 1\" "
                        + "(expected: a header value of visible ASCII characters, with spaces and tabs inside)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            X-Ctl=a\u0001b   | observatory.probe.headers[X-Ctl]: "a\\u0001b" (expected: a header value of visible ASCII characters, with spaces and tabs inside)
            X-Del=a\u007fb   | observatory.probe.headers[X-Del]: "a\\u007fb" (expected: a header value of visible ASCII characters, with spaces and tabs inside)
            X-Uni=h\u00e9llo | observatory.probe.headers[X-Uni]: héllo (expected: a header value of visible ASCII characters, with spaces and tabs inside)
            """)
    void bindWhenHeaderValueIsNotVisibleAsciiThenRefusedRatherThanMangledOnTheWire(String assignment, String line) {
        assertThat(Configs.rejection("probe.headers." + assignment.translateEscapes()))
                .isEqualTo(line);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"Content-Length", "transfer-encoding", "Expect", "Upgrade", "Proxy-Authorization", "proxy-connection"})
    void bindWhenHeaderIsOneTheProberSetsThenRefused(String name) {
        assertThat(Configs.rejection("probe.headers." + name + "=5"))
                .isEqualTo("observatory.probe.headers: " + name
                        + " (expected: a header the prober does not set itself (it sets Content-Length, Transfer-Encoding,"
                        + " Trailer, TE, Upgrade, Expect, Proxy-Authorization, Proxy-Connection))");
    }

    @Test
    void bindWhenHeaderValueHasSurroundingWhitespaceThenTrimmedAsGoTrimsIt() {
        assertThat(Configs.of("probe.headers.DNT=\t 0 ").probe().headers()).containsEntry("DNT", "0");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"127.0.0.11, 127.0.0.11", "[::1], ::1", "' [::1] ', ::1", "' ', ''"})
    void bindWhenSourceAddressIsOneOfThisHostThenKept(String value, String kept) {
        ProbeSettings probe = Configs.of("probe.source-address=" + value).probe();

        assertThat(probe.sourceAddress()).isEqualTo(kept.isEmpty() ? null : kept);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            localhost    | observatory.probe.source-address: localhost (expected: an IPv4 or IPv6 address of this \
            host, e.g. 192.0.2.10 or [2001:db8::10])
            10.0.0.300   | observatory.probe.source-address: 10.0.0.300 (expected: an IPv4 or IPv6 address of this \
            host, e.g. 192.0.2.10 or [2001:db8::10])
            []           | observatory.probe.source-address: [] (expected: an IPv4 or IPv6 address of this host, \
            e.g. 192.0.2.10 or [2001:db8::10])
            192.0.2.10   | observatory.probe.source-address: 192.0.2.10 (expected: an address of this host (binding \
            to it failed: Cannot assign requested address))
            """)
    void bindWhenSourceAddressIsNoAddressOfThisHostThenRefused(String value, String line) {
        assertThat(Configs.rejection("probe.source-address=" + value)).isEqualTo(line);
    }

    @Test
    void bindWhenTooManyOrTooLongHeadersThenRefused() {
        String[] many = new String[65];
        for (int i = 0; i < many.length; i++) {
            many[i] = "probe.headers.X-" + i + "=1";
        }
        assertThat(Configs.rejection(many)).isEqualTo("observatory.probe.headers: 65 headers (expected: at most 64)");
        assertThat(Configs.rejection("probe.headers.X-Long=" + "a".repeat(4_097)))
                .isEqualTo("observatory.probe.headers[X-Long]: 4097 characters (expected: at most 4096 characters)");
    }

    @Test
    void bindWhenOutboundsReachTheOtherAddressFamilyThanTheSourceAddressThenOneWarningNamesThem() {
        ObservatoryConfigBinder.Bound bound = Configs.bound(
                "probe.source-address=127.0.0.1",
                "outbounds[0].tag=v6_proxy",
                "outbounds[0].protocol=socks",
                "outbounds[0].address=::1",
                "outbounds[0].port=1080",
                "outbounds[1].tag=v6_direct",
                "outbounds[1].protocol=direct",
                "outbounds[1].probe-url=http://[::1]:8080/",
                "outbounds[2].tag=v4_direct",
                "outbounds[2].protocol=direct",
                "outbounds[3].tag=named_proxy",
                "outbounds[3].protocol=http",
                "outbounds[3].address=proxy.example",
                "outbounds[3].port=3128",
                "standard.subject-selector[0]=",
                "standard.probe-url=http://127.0.0.1:8080/");

        assertThat(bound.warnings())
                .containsExactly("observatory.probe.source-address: 127.0.0.1 is an IPv4 address, and 2 outbounds"
                        + " reach IPv6 ones, which their probes cannot connect to: [v6_direct, v6_proxy]");
    }
}
