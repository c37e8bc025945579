package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.probe.ProbeError.Hop;
import io.observatory.probe.ProbeError.Kind;
import io.observatory.testing.BlackHole;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.DelayedBodyServer;
import io.observatory.testing.FullBacklog;
import io.observatory.testing.HttpConnectTestProxy;
import io.observatory.testing.RequestedDestination;
import io.observatory.testing.ScriptedReplyServer;
import io.observatory.testing.Socks5TestProxy;
import io.observatory.testing.TestTarget;
import io.observatory.testing.TestTls;
import io.observatory.time.Ticker;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.netty.resources.LoopResources;

/** The real prober against real loopback targets and real in-JVM SOCKS5 and HTTP CONNECT proxies. */
class ReactorNettyProberTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Duration RESPONSE_DELAY = Duration.ofMillis(150);
    private static final String USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) ObservatoryTest";

    private static LoopResources loops;
    private static ReactorNettyProber prober;
    private static TestTarget http;
    private static TestTarget https;

    @BeforeAll
    static void startLab() {
        loops = LoopResources.create("probe-test", 1, true);
        Map<String, String> headers = Map.of("User-Agent", USER_AGENT, "Accept-Language", "en-US,en;q=0.9");
        prober = new ReactorNettyProber(
                new ProbeSettings(16, TestTls.certificatePath().toString(), headers, null),
                ProbeHeaders.of(headers, 150),
                loops,
                Clock.systemUTC(),
                Ticker.system());
        http = TestTarget.http();
        https = TestTarget.https();
    }

    @AfterAll
    static void stopLab() {
        http.close();
        https.close();
        loops.disposeLater().block(Duration.ofSeconds(5));
    }

    private static ProbeResult probe(Outbound outbound, String url) {
        return probe(outbound, url, "GET", ProbeRequest.Client.STANDARD_OBSERVER, TIMEOUT);
    }

    private static ProbeResult probe(
            Outbound outbound, String url, String method, ProbeRequest.Client client, Duration timeout) {
        return prober.probe(new ProbeRequest(outbound, URI.create(url), method, timeout, client))
                .block(timeout.plusSeconds(5));
    }

    private static Outbound socks(String tag, int port, String user, String password) {
        return new Outbound(tag, Protocol.SOCKS, "127.0.0.1", port, user, password, null);
    }

    private static Outbound httpProxy(String tag, int port, String user, String password) {
        return new Outbound(tag, Protocol.HTTP, "127.0.0.1", port, user, password, null);
    }

    @Test
    void probeWhenDirectHttpTargetAnswersThenSuccessWithStatusRttAndPhases() {
        ProbeResult result = probe(Outbound.direct("d"), http.url("/generate_204"));

        assertThat(result.success()).isTrue();
        assertThat(result.outboundTag()).isEqualTo("d");
        assertThat(result.httpStatus()).isEqualTo(204);
        assertThat(result.rttNanos()).isPositive().isLessThan(TIMEOUT.toNanos());
        assertThat(result.phases().dnsNanos()).isEqualTo(ProbePhases.NOT_MEASURED);
        assertThat(result.phases().connectNanos()).isPositive();
        assertThat(result.phases().firstByteNanos()).isPositive();
        assertThat(result.phases().proxyHandshakeNanos()).isEqualTo(ProbePhases.NOT_MEASURED);
        assertThat(result.phases().tlsNanos()).isEqualTo(ProbePhases.NOT_MEASURED);
        assertThat(result.finishedAt()).isAfterOrEqualTo(result.startedAt());
    }

    @Test
    void probeWhenStandardObserverThenConfiguredHeadersSentAndConnectionClosedAfterTheResponse() {
        TestTarget own = TestTarget.http();
        try (own) {
            probe(Outbound.direct("d"), own.url("/generate_204"));

            assertThat(own.lastRequest().method()).isEqualTo("GET");
            assertThat(own.lastRequest().header("User-Agent")).isEqualTo(USER_AGENT);
            assertThat(own.lastRequest().header("Connection"))
                    .as("Xray's observer does not disable keep-alive")
                    .isNull();
            await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(own.closedConnectionCount())
                            .as("closed by the prober")
                            .isEqualTo(1));
        }
    }

    @Test
    void probeWhenTargetRedirectsThenRedirectNotFollowedAndCountsAsResponse() {
        int before = http.requestCount("/generate_204");

        ProbeResult result = probe(Outbound.direct("d"), http.url("/status/301"));

        assertThat(result.success()).isTrue();
        assertThat(result.httpStatus()).isEqualTo(301);
        assertThat(http.requestCount("/generate_204")).isEqualTo(before);
    }

    @Test
    void probeWhenConnectivityCheckRedirectedToADeadHostThenFailsAsGosDefaultClientDoes() {
        int deadPort = ClosedPort.find();
        String dead = "http://127.0.0.1:" + deadPort + "/";
        try (ScriptedReplyServer redirect = ScriptedReplyServer.start(
                "HTTP/1.1 302 Found\r\nLocation: " + dead + "\r\nContent-Length: 0\r\n\r\n",
                ScriptedReplyServer.Then.CLOSE)) {
            String url = "http://127.0.0.1:" + redirect.port() + "/generate_204";

            ProbeResult check =
                    probe(Outbound.direct("c"), url, "HEAD", ProbeRequest.Client.CONNECTIVITY_CHECK, TIMEOUT);
            ProbeResult ping = probe(Outbound.direct("p"), url, "HEAD", ProbeRequest.Client.BURST_PING, TIMEOUT);

            assertThat(check.error().kind())
                    .as("Xray's connectivity client follows the redirect")
                    .isEqualTo(Kind.CONNECTION_REFUSED);
            assertThat(check.error().reason())
                    .as("the reason names the host the redirect led to")
                    .contains("connection refused by 127.0.0.1:" + deadPort + ";");
            assertThat(ping.httpStatus()).as("Xray's ping client does not").isEqualTo(302);
        }
    }

    @Test
    void probeWhenConnectivityCheckRedirectedToALiveTargetThenItsAnswerCounts() {
        int before = http.requestCount("/generate_204");

        ProbeResult check = probe(
                Outbound.direct("c"), http.url("/status/307"), "GET", ProbeRequest.Client.CONNECTIVITY_CHECK, TIMEOUT);

        assertThat(check.httpStatus()).isEqualTo(204);
        assertThat(http.requestCount("/generate_204")).isEqualTo(before + 1);
    }

    @ParameterizedTest(name = "{0} redirects: {1}")
    @CsvSource({"9, 204", "10, 0"})
    void probeWhenConnectivityCheckRedirectedRepeatedlyThenGosLimitStopsItAtTheTenthRedirect(
            int redirects, int status) {
        ProbeResult check = probe(
                Outbound.direct("c"),
                http.url("/redirect/" + redirects),
                "GET",
                ProbeRequest.Client.CONNECTIVITY_CHECK,
                TIMEOUT);

        assertThat(check.httpStatus()).isEqualTo(status);
        if (status == 0) {
            // net/http's default CheckRedirect: "stopped after 10 redirects"
            assertThat(check.error().kind()).isEqualTo(Kind.PROTOCOL_ERROR);
            assertThat(check.error().reason()).contains("stopped after 10 redirects from 127.0.0.1:" + http.port());
        }
    }

    @Test
    void probeWhenConnectivityCheckFollowsARedirectThenTheNextHopCarriesRefererAndTheSameMethod() {
        probe(Outbound.direct("c"), http.url("/redirect/1"), "HEAD", ProbeRequest.Client.CONNECTIVITY_CHECK, TIMEOUT);

        assertThat(http.lastRequest().path()).isEqualTo("/redirect/0");
        assertThat(http.lastRequest().method()).isEqualTo("HEAD");
        assertThat(http.lastRequest().header("Referer")).isEqualTo(http.url("/redirect/1"));
        assertThat(http.lastRequest().header("Host")).isEqualTo("127.0.0.1:" + http.port());
    }

    @Test
    void probeWhenTargetAnswers500ThenStillAliveAsInXray() {
        ProbeResult result = probe(Outbound.direct("d"), http.url("/status/500"));

        assertThat(result.success()).isTrue();
        assertThat(result.httpStatus()).isEqualTo(500);
    }

    @Test
    void probeWhenReadBodyThenRttCoversTheBody() {
        ProbeResult result =
                probe(Outbound.direct("d"), http.url("/body/200000"), "GET", ProbeRequest.Client.BURST_PING, TIMEOUT);

        assertThat(result.success()).isTrue();
        assertThat(result.httpStatus()).isEqualTo(200);
        assertThat(result.rttNanos()).isGreaterThanOrEqualTo(result.phases().firstByteNanos());
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource({
        "direct, http, dns connect first_byte",
        "direct, https, dns connect tls first_byte",
        "socks, http, connect proxy_handshake first_byte",
        "socks, https, connect proxy_handshake tls first_byte",
        "http-connect, http, connect proxy_handshake first_byte"
    })
    void probeWhenTargetDelaysItsResponseThenTheFirstBytePhaseHoldsTheDelayAndThePhasesAddUpToTheRtt(
            String path, String scheme, String phases) {
        try (Socks5TestProxy socksProxy = Socks5TestProxy.start("user", "secret");
                HttpConnectTestProxy connectProxy = HttpConnectTestProxy.start("user", "secret")) {
            Outbound outbound = switch (path) {
                case "direct" -> Outbound.direct("d");
                case "socks" -> socks("s", socksProxy.port(), "user", "secret");
                default -> httpProxy("h", connectProxy.port(), "user", "secret");
            };
            TestTarget target = scheme.equals("https") ? https : http;

            ProbeResult result =
                    probe(outbound, target.urlWithHost("localhost", "/delay/" + RESPONSE_DELAY.toMillis()));

            assertThat(result.success()).as("%s", result.error()).isTrue();
            assertThat(result.phases().measured().keySet()).containsExactly(phases.split(" "));
            assertThat(result.phases().firstByteNanos())
                    .as("the server's delay lies between request and response")
                    .isGreaterThanOrEqualTo(RESPONSE_DELAY.toNanos());
            assertThat(result.rttNanos()).isEqualTo(sum(result.phases()));
        }
    }

    @Test
    void probeWhenTheClientReadsTheBodyThenTheRttEndsWithTheBodyAfterThePhases() {
        try (DelayedBodyServer server = DelayedBodyServer.start(RESPONSE_DELAY)) {
            ProbeResult result =
                    probe(Outbound.direct("d"), server.url("/"), "GET", ProbeRequest.Client.BURST_PING, TIMEOUT);

            assertThat(result.success()).as("%s", result.error()).isTrue();
            assertThat(result.httpStatus()).isEqualTo(200);
            assertThat(server.requestToBodyNanos()).isGreaterThanOrEqualTo(RESPONSE_DELAY.toNanos());
            assertThat(result.rttNanos())
                    .as("longer than the server's wait from our request to the body")
                    .isGreaterThan(server.requestToBodyNanos())
                    .isGreaterThan(sum(result.phases()));
            assertThat(result.phases().firstByteNanos())
                    .as("the headers came at once, before the body")
                    .isLessThan(server.requestToBodyNanos());
        }
    }

    @Test
    void probeWhenTheClientDoesNotReadTheBodyThenTheRttEndsAtTheResponseHeaders() {
        try (DelayedBodyServer server = DelayedBodyServer.start(Duration.ofMinutes(1))) {
            ProbeResult result = probe(Outbound.direct("d"), server.url("/"));

            assertThat(result.success()).as("%s", result.error()).isTrue();
            assertThat(result.httpStatus()).isEqualTo(200);
            assertThat(server.bodyWritten())
                    .as("the probe ended before the body was sent")
                    .isFalse();
            assertThat(result.rttNanos()).isPositive().isEqualTo(sum(result.phases()));
        }
    }

    private static long sum(ProbePhases phases) {
        return phases.measured().values().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void probeWhenHttpsWithTrustedCertificateThenDnsAndTlsPhasesMeasured() {
        ProbeResult result = probe(Outbound.direct("d"), https.urlWithHost("localhost", "/generate_204"));

        assertThat(result.success()).as("%s", result.error()).isTrue();
        assertThat(result.phases().dnsNanos()).isPositive();
        assertThat(result.phases().tlsNanos()).isPositive();
    }

    @Test
    void probeWhenCertificateUntrustedThenTlsHandshakeFailureAtTarget() {
        try (TestTarget untrusted = TestTarget.httpsUntrusted()) {
            ProbeResult result = probe(Outbound.direct("d"), untrusted.urlWithHost("localhost", "/generate_204"));

            assertThat(result.success()).isFalse();
            assertThat(result.error().kind()).isEqualTo(Kind.TLS_HANDSHAKE_FAILURE);
            assertThat(result.error().hop()).isEqualTo(Hop.TARGET);
            assertThat(result.error().reason())
                    .startsWith("outbound d (direct): TLS handshake with localhost:" + untrusted.port() + " failed")
                    .contains("PKIX");
        }
    }

    @Test
    void probeWhenDirectTargetPortClosedThenConnectionRefusedAtTarget() {
        int port = ClosedPort.find();

        ProbeResult result = probe(Outbound.direct("d"), "http://127.0.0.1:" + port + "/");

        assertThat(result.error().kind()).isEqualTo(Kind.CONNECTION_REFUSED);
        assertThat(result.error().hop()).isEqualTo(Hop.TARGET);
        assertThat(result.error().reason())
                .startsWith("outbound d (direct): connection refused by 127.0.0.1:" + port + "; caused by: ");
    }

    @Test
    void probeWhenHostNameUnknownThenDnsFailure() {
        ProbeResult result = probe(Outbound.direct("d"), "http://unknown-host.invalid/");

        assertThat(result.error().kind()).isEqualTo(Kind.DNS_FAILURE);
        assertThat(result.error().reason()).contains("cannot resolve unknown-host.invalid:80");
        assertThat(result.phases().connectNanos()).isEqualTo(ProbePhases.NOT_MEASURED);
    }

    @Test
    void probeWhenTargetNeverAnswersThenResponseTimeoutWithinTheDeadline() {
        Duration timeout = Duration.ofMillis(400);

        ProbeResult result =
                probe(Outbound.direct("d"), http.url("/hang"), "GET", ProbeRequest.Client.STANDARD_OBSERVER, timeout);

        assertThat(result.error().kind()).isEqualTo(Kind.RESPONSE_TIMEOUT);
        assertThat(result.error().reason())
                .isEqualTo("outbound d (direct): no response headers from 127.0.0.1:" + http.port() + " within 400ms");
        assertThat(result.rttNanos())
                .isBetween(timeout.toNanos(), timeout.plusSeconds(1).toNanos());
    }

    @Test
    void probeWhenConnectCannotCompleteThenConnectTimeoutBoundedByTheDeadline() {
        try (FullBacklog full = FullBacklog.start()) {
            Duration timeout = Duration.ofMillis(400);

            ProbeResult result = probe(
                    Outbound.direct("d"),
                    "http://127.0.0.1:" + full.port() + "/",
                    "GET",
                    ProbeRequest.Client.STANDARD_OBSERVER,
                    timeout);

            assertThat(result.error().kind()).isEqualTo(Kind.CONNECT_TIMEOUT);
            assertThat(result.error().hop()).isEqualTo(Hop.TARGET);
            assertThat(result.rttNanos()).isLessThan(timeout.plusSeconds(1).toNanos());
        }
    }

    @Test
    void probeWhenTargetResetsThenConnectionReset() {
        ProbeResult reset = probe(Outbound.direct("d"), http.url("/reset"));
        ProbeResult closed = probe(Outbound.direct("d"), http.url("/close"));

        assertThat(reset.error().kind()).isEqualTo(Kind.CONNECTION_RESET);
        assertThat(closed.error().kind()).isEqualTo(Kind.CONNECTION_RESET);
        assertThat(closed.error().reason()).contains("connection closed before the response from 127.0.0.1:");
    }

    @Test
    void probeWhenSocksWithoutAuthThenHostNameHandedToProxyUnresolved() {
        try (Socks5TestProxy proxy = Socks5TestProxy.start()) {
            ProbeResult result =
                    probe(socks("s", proxy.port(), null, null), http.urlWithHost("localhost", "/generate_204"));

            assertThat(result.success()).as("%s", result.error()).isTrue();
            assertThat(result.phases().proxyHandshakeNanos()).isPositive();
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("localhost", http.port()));
        }
    }

    @Test
    void probeWhenSocksCredentialsRightThenHttpsThroughProxySucceeds() {
        try (Socks5TestProxy proxy = Socks5TestProxy.start("user", "secret")) {
            ProbeResult result =
                    probe(socks("s", proxy.port(), "user", "secret"), https.urlWithHost("localhost", "/generate_204"));

            assertThat(result.success()).as("%s", result.error()).isTrue();
            assertThat(result.phases().proxyHandshakeNanos()).isPositive();
            assertThat(result.phases().tlsNanos()).isPositive();
        }
    }

    @Test
    void probeWhenSocksPasswordWrongThenProxyAuthRejectedNamingTheProxyEvenUnderTls() {
        try (Socks5TestProxy proxy = Socks5TestProxy.start("user", "secret")) {
            ProbeResult result =
                    probe(socks("s", proxy.port(), "user", "wrong"), https.urlWithHost("localhost", "/generate_204"));

            assertThat(result.error().kind()).isEqualTo(Kind.PROXY_AUTH_REJECTED);
            assertThat(result.error().hop()).isEqualTo(Hop.PROXY);
            assertThat(result.error().reason())
                    .startsWith("outbound s (socks 127.0.0.1:" + proxy.port() + "): proxy 127.0.0.1:" + proxy.port()
                            + " rejected the credentials (RFC 1929 status 255)");
            assertThat(result.error().reason()).doesNotContain("wrong");
        }
    }

    @Test
    void probeWhenSocksProxyNeedsCredentialsWeLackThenProxyAuthRejected() {
        try (Socks5TestProxy proxy = Socks5TestProxy.start("user", "secret")) {
            ProbeResult result = probe(socks("s", proxy.port(), null, null), http.url("/generate_204"));

            assertThat(result.error().kind()).isEqualTo(Kind.PROXY_AUTH_REJECTED);
            assertThat(result.error().reason()).contains("did not accept no authentication");
        }
    }

    @Test
    void probeWhenSocksProxyCannotReachTargetThenRefusedTargetWithReplyCode() {
        try (Socks5TestProxy proxy = Socks5TestProxy.start()) {
            int closed = ClosedPort.find();

            ProbeResult result = probe(socks("s", proxy.port(), null, null), "http://localhost:" + closed + "/");

            assertThat(result.error().kind()).isEqualTo(Kind.PROXY_REFUSED_TARGET);
            assertThat(result.error().hop()).isEqualTo(Hop.TARGET);
            assertThat(result.error().proxyReplyCode()).isEqualTo(5);
            assertThat(result.error().reason())
                    .contains("did not connect to localhost:" + closed + " (SOCKS5 reply 5 CONNECTION_REFUSED)");
        }
    }

    @Test
    void probeWhenHttpProxyWithBasicAuthThenSuccess() {
        try (HttpConnectTestProxy proxy = HttpConnectTestProxy.start("user", "secret")) {
            ProbeResult result = probe(
                    httpProxy("h", proxy.port(), "user", "secret"), http.urlWithHost("localhost", "/generate_204"));

            assertThat(result.success()).as("%s", result.error()).isTrue();
            assertThat(result.httpStatus()).isEqualTo(204);
            assertThat(proxy.requestedDestinations())
                    .extracting(RequestedDestination::hostAndPort)
                    .containsExactly("localhost:" + http.port());
        }
    }

    @Test
    void probeWhenHttpProxyCredentialsWrongThenAuthRejectedWithStatus() {
        try (HttpConnectTestProxy proxy = HttpConnectTestProxy.start("user", "secret")) {
            ProbeResult result = probe(
                    httpProxy("h", proxy.port(), "user", "wrong"), https.urlWithHost("localhost", "/generate_204"));

            assertThat(result.error().kind()).isEqualTo(Kind.PROXY_AUTH_REJECTED);
            assertThat(result.error().proxyReplyCode()).isEqualTo(407);
            assertThat(result.error().reason())
                    .contains("proxy 127.0.0.1:" + proxy.port() + " rejected the credentials (CONNECT status 407)");
        }
    }

    @Test
    void probeWhenHttpProxyCannotReachTargetThenRefusedTargetWithStatus() {
        try (HttpConnectTestProxy proxy = HttpConnectTestProxy.start()) {
            ProbeResult result =
                    probe(httpProxy("h", proxy.port(), null, null), "http://localhost:" + ClosedPort.find() + "/");

            assertThat(result.error().kind()).isEqualTo(Kind.PROXY_REFUSED_TARGET);
            assertThat(result.error().proxyReplyCode()).isEqualTo(502);
        }
    }

    @Test
    void probeWhenProxyIsDownThenConnectionRefusedAtProxy() {
        int dead = ClosedPort.find();

        ProbeResult result = probe(socks("s", dead, null, null), http.url("/generate_204"));

        assertThat(result.error().kind()).isEqualTo(Kind.CONNECTION_REFUSED);
        assertThat(result.error().hop()).isEqualTo(Hop.PROXY);
        assertThat(result.error().reason()).contains("connection refused by 127.0.0.1:" + dead);
    }

    @Test
    void probeWhenProxyBlackHoledThenHandshakeTimeoutAtProxyWithinDeadline() {
        try (BlackHole hole = BlackHole.start()) {
            Duration timeout = Duration.ofMillis(400);

            ProbeResult result = probe(
                    httpProxy("h", hole.port(), null, null),
                    http.url("/generate_204"),
                    "GET",
                    ProbeRequest.Client.STANDARD_OBSERVER,
                    timeout);

            assertThat(result.error().kind()).isEqualTo(Kind.CONNECT_TIMEOUT);
            assertThat(result.error().hop()).isEqualTo(Hop.PROXY);
            // Which of the two deadlines fires first (the probe's, or the proxy handler's own handshake timer, which a
            // loaded machine can reach first) decides the wording; both name the proxy's handshake.
            assertThat(result.error().reason())
                    .containsAnyOf("did not finish the handshake", "did not complete the handshake within");
            assertThat(result.rttNanos()).isLessThan(timeout.plusSeconds(1).toNanos());
        }
    }
}
