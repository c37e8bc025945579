package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.testing.BlackHole;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.FullBacklog;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.ScriptedReplyServer;
import io.observatory.testing.TestPki;
import io.observatory.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.resources.LoopResources;

/**
 * The {@code tcp} and {@code tls} probes against real servers: nginx on loopback with certificates of a throwaway CA,
 * one name per {@code server} block and {@code ssl_reject_handshake} for every other name (a server that refuses an
 * SNI), a second listener with an expired certificate, a closed port, a listener whose backlog is full (SYNs dropped,
 * as a black hole drops them), one that accepts and never answers, and one that closes on the ClientHello.
 */
class HandshakeProbeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(300);

    @TempDir
    static Path workdir;

    private static LoopResources loops;
    private static ReactorNettyProber prober;
    private static LoopbackDaemon nginx;
    private static int port;
    private static int expiredPort;

    @BeforeAll
    static void startServers() throws IOException {
        loops = LoopResources.create("handshake-probe-test", 1, true);
        prober = new ReactorNettyProber(
                new ProbeSettings(16, TestPki.caCertificate().toString(), Map.of(), null),
                ProbeHeaders.of(Map.of(), 150),
                loops,
                Clock.systemUTC(),
                Ticker.system());
        port = LoopbackDaemon.freePort();
        expiredPort = LoopbackDaemon.freePort();
        String certificate = "ssl_certificate " + TestPki.serverCertificate() + "; ssl_certificate_key "
                + TestPki.serverPrivateKey() + ";";
        nginx = LoopbackDaemon.nginxServers(workdir, port, """
                server { listen 127.0.0.1:%1$d ssl default_server; ssl_reject_handshake on; }
                server { listen 127.0.0.1:%1$d ssl; server_name localhost; %3$s return 204; }
                server { listen 127.0.0.1:%1$d ssl; server_name other.test; %3$s return 204; }
                server {
                  listen 127.0.0.1:%2$d ssl;
                  ssl_certificate %4$s;
                  ssl_certificate_key %5$s;
                  return 204;
                }
                """.formatted(
                port, expiredPort, certificate, TestPki.expiredServerCertificate(), TestPki.expiredServerPrivateKey()));
    }

    @AfterAll
    static void stopServers() {
        if (nginx != null) {
            nginx.close();
        }
        loops.disposeLater().block(Duration.ofSeconds(5));
    }

    private static Outbound tcp(int port) {
        return new Outbound("edge", Protocol.TCP, "127.0.0.1", port, null, null, null);
    }

    private static Outbound tls(int port, @Nullable String sni, boolean allowInsecure) {
        return new Outbound(
                "edge",
                Protocol.TLS,
                "127.0.0.1",
                port,
                null,
                null,
                null,
                sni,
                List.of("h2", "http/1.1"),
                allowInsecure);
    }

    private static ProbeResult probe(Outbound outbound) {
        URI server = outbound.probeUrlOr(URI.create("http://unused.test/"));
        return prober.probe(new ProbeRequest(
                        outbound, server, "GET", TIMEOUT, CONNECT_TIMEOUT, ProbeRequest.Client.STANDARD_OBSERVER))
                .block(TIMEOUT.plusSeconds(5));
    }

    private static ProbeError error(ProbeResult result) {
        assertThat(result.success()).as("probe failed").isFalse();
        return result.error();
    }

    @Test
    void tcpWhenServerAcceptsThenSuccessWithTheConnectAsRtt() {
        ProbeResult result = probe(tcp(port));

        assertThat(result.success()).isTrue();
        assertThat(result.httpStatus()).isZero();
        assertThat(result.phases().connectNanos()).isPositive();
        assertThat(result.rttNanos()).isEqualTo(result.phases().connectNanos());
        assertThat(result.phases().tlsNanos()).isEqualTo(ProbePhases.NOT_MEASURED);
        assertThat(result.phases().firstByteNanos()).isEqualTo(ProbePhases.NOT_MEASURED);
        assertThat(result.certificateNotAfter()).isNull();
    }

    @Test
    void tcpWhenPortClosedThenConnectionRefused() {
        int closed = ClosedPort.find();

        ProbeError error = error(probe(tcp(closed)));

        assertThat(error.kind()).isEqualTo(ProbeError.Kind.CONNECTION_REFUSED);
        assertThat(error.hop()).isEqualTo(ProbeError.Hop.TARGET);
        assertThat(error.reason()).startsWith("outbound edge (tcp 127.0.0.1:" + closed + "): connection refused by");
    }

    @Test
    void tcpWhenSynsAreDroppedThenConnectTimeoutAfterTheConnectDeadlineNotTheWholeTimeout() {
        try (FullBacklog blackHoled = FullBacklog.start()) {
            ProbeResult result = probe(tcp(blackHoled.port()));

            ProbeError error = error(result);
            assertThat(error.kind()).isEqualTo(ProbeError.Kind.CONNECT_TIMEOUT);
            assertThat(error.reason())
                    .contains("no connection to 127.0.0.1:" + blackHoled.port() + " within 300ms (connect-timeout)");
            assertThat(Duration.between(result.startedAt(), result.finishedAt()))
                    .isGreaterThanOrEqualTo(CONNECT_TIMEOUT)
                    .isLessThan(TIMEOUT);
        }
    }

    @Test
    void tlsWhenCertificateMatchesTheSniThenSuccessWithHandshakeInRttAndTheCertificatesExpiry() throws Exception {
        ProbeResult result = probe(tls(port, "localhost", false));

        assertThat(result.success()).as("%s", result.error()).isTrue();
        assertThat(result.phases().tlsNanos()).isPositive();
        assertThat(result.rttNanos())
                .isEqualTo(result.phases().connectNanos() + result.phases().tlsNanos());
        assertThat(result.certificateNotAfter()).isEqualTo(notAfter(TestPki.serverCertificate()));
    }

    @Test
    void tlsWhenServerRejectsTheSniThenHandshakeFailureNamingTheAlert() {
        ProbeError error = error(probe(tls(port, "blocked.test", false)));

        assertThat(error.kind()).isEqualTo(ProbeError.Kind.TLS_HANDSHAKE_FAILURE);
        assertThat(error.reason())
                .startsWith("outbound edge (tls 127.0.0.1:" + port + " sni blocked.test): TLS handshake with 127.0.0.1:"
                        + port + " failed: it sent the alert unrecognized_name");
    }

    @Test
    void tcpWhenServerRejectsEverySniThenStillSuccess() {
        assertThat(probe(tcp(port)).success())
                .as("an SNI block shows in tls only")
                .isTrue();
    }

    @Test
    void tlsWhenCertificateNamesAnotherHostThenMismatchUnlessAllowInsecure() {
        ProbeError error = error(probe(tls(port, "other.test", false)));

        assertThat(error.kind()).isEqualTo(ProbeError.Kind.TLS_HANDSHAKE_FAILURE);
        assertThat(error.reason())
                .contains("failed: the certificate of 127.0.0.1:" + port + " does not match other.test");
        assertThat(probe(tls(port, "other.test", true)).success()).isTrue();
    }

    @Test
    void tlsWhenCertificateExpiredThenExpiredUnlessAllowInsecureWhichStillReportsItsExpiry() throws Exception {
        ProbeError error = error(probe(tls(expiredPort, "localhost", false)));

        assertThat(error.kind()).isEqualTo(ProbeError.Kind.TLS_HANDSHAKE_FAILURE);
        assertThat(error.reason()).contains("failed: the certificate of 127.0.0.1:" + expiredPort + " has expired");
        ProbeResult insecure = probe(tls(expiredPort, "localhost", true));
        assertThat(insecure.success()).isTrue();
        assertThat(insecure.certificateNotAfter())
                .isEqualTo(notAfter(TestPki.expiredServerCertificate()))
                .isBefore(Instant.now());
    }

    @Test
    void tlsWhenServerNeverAnswersThenHandshakeDeadlineIsTheConnectTimeout() {
        try (BlackHole silent = BlackHole.start()) {
            ProbeError error = error(probe(tls(silent.port(), "localhost", false)));

            assertThat(error.kind()).isEqualTo(ProbeError.Kind.TLS_HANDSHAKE_FAILURE);
            assertThat(error.reason()).contains("did not finish within 300ms (connect-timeout)");
        }
    }

    @Test
    void tlsWhenServerClosesDuringTheHandshakeThenConnectionReset() {
        try (ScriptedReplyServer reset = ScriptedReplyServer.start(new byte[0], ScriptedReplyServer.Then.CLOSE)) {
            ProbeError error = error(probe(tls(reset.port(), "localhost", false)));

            assertThat(error.kind()).isEqualTo(ProbeError.Kind.CONNECTION_RESET);
            assertThat(error.reason()).contains("closed the connection during the TLS handshake");
        }
    }

    private static Instant notAfter(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            X509Certificate certificate =
                    (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            return certificate.getNotAfter().toInstant();
        }
    }
}
