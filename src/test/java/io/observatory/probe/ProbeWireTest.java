package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.testing.RawRequestRecorder;
import io.observatory.time.Ticker;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

/**
 * The exact bytes of a probe's request head as a server receives them, against what Xray-core sends: its headers
 * from {@code common/utils/browser.go} written by Go's {@code net/http} (the expected texts are what Go 1.19's
 * {@code Request.write} and {@code Transport} put on the wire for Xray's header set, captured on this machine).
 */
class ProbeWireTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final int CHROME = 150;

    /** Xray's navigation headers for Chrome 150 in Go's order, between User-Agent and the transport's additions. */
    private static final String NAVIGATION = """
            Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,\
            image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7\r
            Accept-Language: en-US,en;q=0.9\r
            Cache-Control: max-age=0\r
            DNT: 1\r
            Priority: u=0, i\r
            %sSec-CH-UA: "Not;A=Brand";v="8", "Chromium";v="150", "Google Chrome";v="150"\r
            Sec-CH-UA-Mobile: ?0\r
            Sec-CH-UA-Platform: "Windows"\r
            Sec-Fetch-Dest: document\r
            Sec-Fetch-Mode: navigate\r
            Sec-Fetch-Site: none\r
            Sec-Fetch-User: ?1\r
            Upgrade-Insecure-Requests: 1\r
            """;

    private static final String USER_AGENT = "User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) "
            + "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36\r\n";

    private static LoopResources loops;
    private static ReactorNettyProber prober;
    private static RawRequestRecorder target;

    @BeforeAll
    static void start() {
        loops = LoopResources.create("probe-wire-test", 1, true);
        prober = new ReactorNettyProber(
                new ProbeSettings(4, null, Map.of(), null),
                ProbeHeaders.of(Map.of(), CHROME),
                loops,
                Clock.systemUTC(),
                Ticker.system());
        target = RawRequestRecorder.replying("HTTP/1.1 204 No Content\r\n\r\n");
    }

    @AfterAll
    static void stop() {
        target.close();
        loops.disposeLater().block(Duration.ofSeconds(5));
    }

    private static ProbeResult probe(Outbound outbound, String url, String method, ProbeRequest.Client client) {
        return prober.probe(new ProbeRequest(outbound, URI.create(url), method, TIMEOUT, client))
                .block(TIMEOUT.plusSeconds(5));
    }

    private String lastHead(RawRequestRecorder server) {
        return server.heads().get(server.heads().size() - 1);
    }

    private static boolean bindable(String address) throws Exception {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0))) {
            return socket.isBound();
        } catch (SocketException e) {
            return false;
        }
    }

    private String url() {
        return "http://127.0.0.1:" + target.port() + "/generate_204";
    }

    @Test
    void probeWhenStandardObserverThenXraysGetWithGoTransportsAcceptEncodingAndNoConnectionHeader() {
        assertThat(probe(Outbound.direct("d"), url(), "GET", ProbeRequest.Client.STANDARD_OBSERVER)
                        .success())
                .isTrue();

        assertThat(lastHead(target))
                .isEqualTo("GET /generate_204 HTTP/1.1\r\nHost: 127.0.0.1:" + target.port() + "\r\n" + USER_AGENT
                        + NAVIGATION.formatted("") + "Accept-Encoding: gzip\r\n\r\n");
    }

    @Test
    void probeWhenBurstPingWithHeadThenConnectionCloseAndNoAcceptEncoding() {
        assertThat(probe(Outbound.direct("d"), url(), "HEAD", ProbeRequest.Client.BURST_PING)
                        .success())
                .isTrue();

        assertThat(lastHead(target))
                .isEqualTo("HEAD /generate_204 HTTP/1.1\r\nHost: 127.0.0.1:" + target.port() + "\r\n" + USER_AGENT
                        + NAVIGATION.formatted("") + "Connection: close\r\n\r\n");
    }

    @Test
    void probeWhenBurstPingWithGetThenAcceptEncodingThenConnectionClose() {
        assertThat(probe(Outbound.direct("d"), url(), "GET", ProbeRequest.Client.BURST_PING)
                        .success())
                .isTrue();

        assertThat(lastHead(target))
                .endsWith("Upgrade-Insecure-Requests: 1\r\nAccept-Encoding: gzip\r\n" + "Connection: close\r\n\r\n");
    }

    @Test
    void probeWhenPostThenEmptyContentLengthRightAfterUserAgentAsGoWritesIt() {
        assertThat(probe(Outbound.direct("d"), url(), "POST", ProbeRequest.Client.BURST_PING)
                        .success())
                .isTrue();

        assertThat(lastHead(target))
                .isEqualTo("POST /generate_204 HTTP/1.1\r\nHost: 127.0.0.1:" + target.port()
                        + "\r\n" + USER_AGENT + "Content-Length: 0\r\n" + NAVIGATION.formatted("")
                        + "Accept-Encoding: gzip\r\nConnection: close\r\n\r\n");
    }

    @Test
    void probeWhenOtherMethodThenNoContentLengthAsGoSendsNone() {
        assertThat(probe(Outbound.direct("d"), url(), "OPTIONS", ProbeRequest.Client.BURST_PING)
                        .success())
                .isTrue();

        assertThat(lastHead(target))
                .startsWith("OPTIONS /generate_204 HTTP/1.1\r\n")
                .doesNotContainIgnoringCase("content-length");
    }

    @Test
    void probeWhenUrlHasUserInfoAndEmptyPortThenBasicAuthorizationAndHostWithoutColonAsGoSendsThem() {
        probe(
                Outbound.direct("d"),
                "http://u:p@127.0.0.1:" + target.port() + "/generate_204",
                "GET",
                ProbeRequest.Client.STANDARD_OBSERVER);

        assertThat(lastHead(target))
                .contains("\r\nAccept-Language: en-US,en;q=0.9\r\nAuthorization: Basic dTpw\r\n"
                        + "Cache-Control: max-age=0\r\n");
        assertThat(ProbeHop.authority(URI.create("http://example.com:/"))).isEqualTo("example.com");
    }

    @Test
    void probeWhenConnectivityCheckRedirectedToAnotherHostThenConfiguredCredentialsStayBehindAsGosClientLeavesThem() {
        LoopResources own = LoopResources.create("probe-redirect-test", 1, true);
        try (RawRequestRecorder next = RawRequestRecorder.replying("HTTP/1.1 204 No Content\r\n\r\n");
                RawRequestRecorder first = RawRequestRecorder.replying("HTTP/1.1 302 Found\r\nLocation: "
                        + "http://localhost:" + next.port() + "/next\r\nContent-Length: 0\r\n\r\n")) {
            Map<String, String> credentials = Map.of("Authorization", "Bearer s3cret", "Cookie", "sid=s3cret");
            ReactorNettyProber prober = new ReactorNettyProber(
                    new ProbeSettings(1, null, credentials, null),
                    ProbeHeaders.of(credentials, CHROME),
                    own,
                    Clock.systemUTC(),
                    Ticker.system());
            String from = "http://127.0.0.1:" + first.port() + "/first";

            assertThat(prober.probe(new ProbeRequest(
                                    Outbound.direct("c"),
                                    URI.create(from),
                                    "HEAD",
                                    TIMEOUT,
                                    ProbeRequest.Client.CONNECTIVITY_CHECK))
                            .block(TIMEOUT.plusSeconds(5))
                            .httpStatus())
                    .isEqualTo(204);

            assertThat(lastHead(first)).contains("\r\nAuthorization: Bearer s3cret\r\n", "\r\nCookie: sid=s3cret\r\n");
            assertThat(lastHead(next))
                    .startsWith("HEAD /next HTTP/1.1\r\nHost: localhost:" + next.port() + "\r\n")
                    .contains("\r\nReferer: " + from + "\r\n")
                    .doesNotContain("s3cret");
        } finally {
            own.disposeLater().block(Duration.ofSeconds(5));
        }
    }

    @Test
    void probeWhenSourceAddressSetThenTheTargetSeesTheProbeComeFromIt() throws Exception {
        assumeTrue(bindable("127.0.0.42"), "127.0.0.42 is an address of this host (Linux routes 127.0.0.0/8 to lo)");
        LoopResources own = LoopResources.create("probe-source-test", 1, true);
        try {
            ReactorNettyProber bound = new ReactorNettyProber(
                    new ProbeSettings(1, null, Map.of(), "127.0.0.42"),
                    ProbeHeaders.of(Map.of(), CHROME),
                    own,
                    Clock.systemUTC(),
                    Ticker.system());

            assertThat(bound.probe(new ProbeRequest(
                                    Outbound.direct("d"),
                                    URI.create(url()),
                                    "GET",
                                    TIMEOUT,
                                    ProbeRequest.Client.STANDARD_OBSERVER))
                            .block(TIMEOUT.plusSeconds(5))
                            .success())
                    .isTrue();

            assertThat(target.peers().get(target.peers().size() - 1)).isEqualTo(InetAddress.getByName("127.0.0.42"));
        } finally {
            own.disposeLater().block(Duration.ofSeconds(5));
        }
    }

    @Test
    void probeWhenTheTargetIsOfTheOtherAddressFamilyThanTheSourceAddressThenTheErrorSaysSo() throws Exception {
        assumeTrue(bindable("::1"), "this host has IPv6 loopback");
        LoopResources own = LoopResources.create("probe-family-test", 1, true);
        try (ServerSocket v6 = new ServerSocket(0, 1, InetAddress.getByName("::1"))) {
            ReactorNettyProber bound = new ReactorNettyProber(
                    new ProbeSettings(1, null, Map.of(), "127.0.0.1"),
                    ProbeHeaders.of(Map.of(), CHROME),
                    own,
                    Clock.systemUTC(),
                    Ticker.system());

            ProbeResult result = bound.probe(new ProbeRequest(
                            Outbound.direct("d"),
                            URI.create("http://[::1]:" + v6.getLocalPort() + "/generate_204"),
                            "GET",
                            TIMEOUT,
                            ProbeRequest.Client.STANDARD_OBSERVER))
                    .block(TIMEOUT.plusSeconds(5));

            assertThat(result.success()).isFalse();
            assertThat(result.error().kind()).isEqualTo(ProbeError.Kind.OTHER);
            assertThat(result.error().reason())
                    .startsWith("outbound d (direct): cannot reach [::1]:" + v6.getLocalPort() + " from the probes'"
                            + " source address 127.0.0.1 (observatory.probe.source-address): an IPv6 address from an"
                            + " IPv4 one");
        } finally {
            own.disposeLater().block(Duration.ofSeconds(5));
        }
    }

    @Test
    void probeWhenHttpOutboundThenConnectCarriesXraysHeadersAndProxyConnection() {
        try (RawRequestRecorder proxy =
                RawRequestRecorder.replying("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")) {
            Outbound outbound = new Outbound("h", Protocol.HTTP, "127.0.0.1", proxy.port(), "u", "p", null);

            ProbeResult result =
                    probe(outbound, "https://example.com/generate_204", "GET", ProbeRequest.Client.STANDARD_OBSERVER);

            assertThat(result.error().kind()).isEqualTo(ProbeError.Kind.PROXY_REFUSED_TARGET);
            assertThat(lastHead(proxy))
                    .isEqualTo("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n"
                            + USER_AGENT
                            + NAVIGATION.formatted(
                                    "Proxy-Authorization: Basic dTpw\r\n" + "Proxy-Connection: Keep-Alive\r\n")
                            + "\r\n");
        }
    }
}
