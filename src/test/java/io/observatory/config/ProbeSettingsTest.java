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
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeSettingsTest {

    @TempDir
    Path directory;

    private static ProbeSettings probe(String... properties) {
        return Configs.of(properties).probe();
    }

    @Test
    void bindWhenDefaultsThenBrowserHeadersAndDefaultConcurrency() {
        ProbeSettings probe = probe();

        assertThat(probe.maxConcurrent()).isEqualTo(1024);
        assertThat(probe.trustedCertificatesPath()).isNull();
        assertThat(probe.headers()).containsExactlyEntriesOf(ProbeSettings.DEFAULT_HEADERS);
    }

    @Test
    void bindWhenMaxConcurrentZeroThenError() {
        assertThat(Configs.rejection("probe.max-concurrent=0"))
                .isEqualTo("observatory.probe.max-concurrent: 0 (expected: at least 1)");
    }

    @Test
    void bindWhenTrustedCertificatesHoldCertificateThenPath() {
        Path pem = TestTls.certificatePath();

        assertThat(probe("probe.trusted-certificates=" + pem).trustedCertificatesPath()).isEqualTo(pem);
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

        assertThat(Configs.rejection("probe.trusted-certificates=" + missing)).isEqualTo(
                "observatory.probe.trusted-certificates: " + missing + " (expected: the path of an existing PEM file)");
        assertThat(Configs.rejection("probe.trusted-certificates=" + directory)).isEqualTo(
                "observatory.probe.trusted-certificates: " + directory
                        + " (expected: the path of an existing PEM file)");
    }

    @Test
    void bindWhenHeaderOverriddenInOtherCaseThenReplacedInBrowserOrder() {
        Map<String, String> sent = probe("probe.headers.user-agent=observatory-test", "probe.headers.X-Probe=1")
                .headers();

        assertThat(sent.keySet()).containsExactly("sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform",
                "Upgrade-Insecure-Requests", "User-Agent", "Accept", "Sec-Fetch-Site", "Sec-Fetch-Mode",
                "Sec-Fetch-User", "Sec-Fetch-Dest", "Accept-Language", "X-Probe");
        assertThat(sent).containsEntry("User-Agent", "observatory-test");
    }

    @Test
    void bindWhenHeaderEmptyThenRemoved() {
        assertThat(probe("probe.headers.SEC-CH-UA=").headers()).doesNotContainKey("sec-ch-ua").hasSize(10);
    }

    @Test
    void bindWhenHeaderNameHasSpaceThenError() {
        assertThat(Configs.rejection("probe.headers[X Probe]=1")).isEqualTo("observatory.probe.headers: X Probe "
                + "(expected: header names made of letters, digits and !#$%&'*+-.^_`|~)");
    }

    @Test
    void bindWhenHeaderValueHasLineBreakThenErrorStaysOneLine() {
        assertThat(Configs.rejection("probe.headers.X-Probe=a\r\nInjected: 1"))
                .isEqualTo("observatory.probe.headers[X-Probe]: \"a\\r\\nInjected: 1\" "
                        + "(expected: a header value on one line)");
    }

    @Test
    void defaultHeadersWhenReadThenChromeNavigationOrderWithoutAcceptEncoding() {
        assertThat(ProbeSettings.DEFAULT_HEADERS.keySet()).containsExactly("sec-ch-ua", "sec-ch-ua-mobile",
                "sec-ch-ua-platform", "Upgrade-Insecure-Requests", "User-Agent", "Accept", "Sec-Fetch-Site",
                "Sec-Fetch-Mode", "Sec-Fetch-User", "Sec-Fetch-Dest", "Accept-Language");
        assertThat(ProbeSettings.DEFAULT_HEADERS)
                .containsEntry("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
                        + "image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7")
                .containsEntry("Accept-Language", "en-US,en;q=0.9")
                .containsEntry("sec-ch-ua-mobile", "?0")
                .containsEntry("sec-ch-ua-platform", "\"Windows\"")
                .containsEntry("Sec-Fetch-Site", "none")
                .containsEntry("Sec-Fetch-Mode", "navigate")
                .containsEntry("Sec-Fetch-User", "?1")
                .containsEntry("Sec-Fetch-Dest", "document")
                .containsEntry("Upgrade-Insecure-Requests", "1");
    }

    @Test
    void defaultHeadersWhenReadThenClientHintsNameTheUserAgentsChromeVersion() {
        Matcher userAgent = Pattern.compile("Mozilla/5\\.0 \\(Windows NT 10\\.0; Win64; x64\\) AppleWebKit/537\\.36 "
                + "\\(KHTML, like Gecko\\) Chrome/(\\d+)\\.0\\.0\\.0 Safari/537\\.36")
                .matcher(ProbeSettings.DEFAULT_HEADERS.get("User-Agent"));
        assertThat(userAgent.matches()).isTrue();
        String major = userAgent.group(1);

        assertThat(ProbeSettings.DEFAULT_HEADERS.get("sec-ch-ua"))
                .contains("\"Chromium\";v=\"" + major + "\"", "\"Google Chrome\";v=\"" + major + "\"");
    }
}
