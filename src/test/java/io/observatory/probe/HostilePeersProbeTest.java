package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.probe.ProbeError.Hop;
import io.observatory.probe.ProbeError.Kind;
import io.observatory.testing.ScriptedReplyServer;
import io.observatory.testing.ScriptedReplyServer.Then;
import io.observatory.testing.TestTarget;
import io.observatory.time.Ticker;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.netty.resources.LoopResources;

/** Proxies and targets that break their protocol: each failure is classified at the right hop, within the deadline. */
class HostilePeersProbeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static LoopResources loops;
    private static ReactorNettyProber prober;
    private static TestTarget target;

    @BeforeAll
    static void start() {
        loops = LoopResources.create("hostile-test", 1, true);
        prober = new ReactorNettyProber(
                new ProbeSettings(8, null, Map.of(), null),
                ProbeHeaders.of(Map.of(), 150),
                loops,
                Clock.systemUTC(),
                Ticker.system());
        target = TestTarget.http();
    }

    @AfterAll
    static void stop() {
        target.close();
        loops.disposeLater().block(Duration.ofSeconds(5));
    }

    private static ProbeResult probeThroughProxy(Protocol protocol, ScriptedReplyServer proxy) {
        Outbound outbound = new Outbound("hostile", protocol, "127.0.0.1", proxy.port(), null, null, null);
        return prober.probe(new ProbeRequest(
                        outbound,
                        URI.create(target.url("/generate_204")),
                        "GET",
                        TIMEOUT,
                        ProbeRequest.Client.STANDARD_OBSERVER))
                .block(TIMEOUT.plusSeconds(5));
    }

    static Stream<Arguments> brokenProxies() {
        return Stream.of(
                Arguments.of(
                        "SOCKS greeting with version 4",
                        Protocol.SOCKS,
                        new byte[] {4, 0},
                        Then.STAY_SILENT,
                        Kind.PROTOCOL_ERROR,
                        "sent an invalid SOCKS5 reply"),
                Arguments.of(
                        "SOCKS greeting then close",
                        Protocol.SOCKS,
                        new byte[] {5, 0},
                        Then.CLOSE,
                        Kind.CONNECTION_RESET,
                        "closed the connection during the handshake"),
                Arguments.of(
                        "CONNECT reply that is not HTTP",
                        Protocol.HTTP,
                        "garbage garbage\r\n\r\n".getBytes(),
                        Then.STAY_SILENT,
                        Kind.PROTOCOL_ERROR,
                        "sent an invalid HTTP CONNECT reply"),
                Arguments.of(
                        "CONNECT 403 then close",
                        Protocol.HTTP,
                        "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".getBytes(),
                        Then.CLOSE,
                        Kind.PROXY_REFUSED_TARGET,
                        "(CONNECT status 403)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenProxies")
    void probeWhenProxyBreaksItsProtocolThenProxyHopIsBlamed(
            String name, Protocol protocol, byte[] reply, Then then, Kind kind, String reasonPart) {
        try (ScriptedReplyServer proxy = ScriptedReplyServer.start(reply, then)) {
            ProbeResult result = probeThroughProxy(protocol, proxy);

            assertThat(result.error().kind()).isEqualTo(kind);
            assertThat(result.error().reason())
                    .startsWith("outbound hostile (" + protocol.name().toLowerCase() + " 127.0.0.1:" + proxy.port()
                            + "): proxy 127.0.0.1:" + proxy.port())
                    .contains(reasonPart);
            assertThat(result.rttNanos()).isLessThan(TIMEOUT.toNanos());
        }
    }

    static Stream<Arguments> brokenTargets() {
        return Stream.of(
                Arguments.of(
                        "status line then close",
                        "HTTP/1.1 200 OK\r\n",
                        Then.CLOSE,
                        Kind.CONNECTION_RESET,
                        "connection closed before the response from 127.0.0.1:"),
                Arguments.of(
                        "short body then close",
                        "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789",
                        Then.CLOSE,
                        Kind.CONNECTION_RESET,
                        "connection closed during the response body from"),
                Arguments.of(
                        "garbage instead of HTTP",
                        "SSH-2.0-OpenSSH_9.2\r\n",
                        Then.STAY_SILENT,
                        Kind.PROTOCOL_ERROR,
                        "invalid HTTP response from 127.0.0.1:"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenTargets")
    void probeWhenTargetBreaksHttpThenTargetHopIsBlamed(
            String name, String reply, Then then, Kind kind, String reasonPart) {
        try (ScriptedReplyServer server = ScriptedReplyServer.start(reply, then)) {
            ProbeResult result = prober.probe(new ProbeRequest(
                            Outbound.direct("hostile"),
                            URI.create("http://127.0.0.1:" + server.port() + "/"),
                            "GET",
                            TIMEOUT,
                            ProbeRequest.Client.BURST_PING))
                    .block(TIMEOUT.plusSeconds(5));

            assertThat(result.error().kind()).isEqualTo(kind);
            assertThat(result.error().hop()).isEqualTo(Hop.TARGET);
            assertThat(result.error().reason()).contains(reasonPart);
        }
    }
}
