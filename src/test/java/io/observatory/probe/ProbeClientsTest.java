package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.testing.FakeScheduler;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.LoopResources;

/** What a probe's exchange reuses from the probes before it. */
class ProbeClientsTest {

    private static final ProbeHeaders HEADERS = ProbeHeaders.of(Map.of(), 150);

    private static final FakeScheduler TIME = new FakeScheduler();

    private static LoopResources loops;
    private static ProbeClients clients;

    @BeforeAll
    static void startLoops() {
        loops = LoopResources.create("probe-clients-test", 1, true);
        clients = newClients();
    }

    private static ProbeClients newClients() {
        return new ProbeClients(
                new ProbeSettings(1, null, Map.of(), null), TrustedCertificates.withExtra(null), HEADERS, loops, TIME);
    }

    @AfterAll
    static void stopLoops() {
        loops.disposeLater().block(Duration.ofSeconds(5));
    }

    private static ProbeRequest request(String url) {
        return request(Outbound.direct("d"), url);
    }

    private static ProbeRequest request(Outbound outbound, String url) {
        return new ProbeRequest(
                outbound, URI.create(url), "GET", Duration.ofSeconds(2), ProbeRequest.Client.CONNECTIVITY_CHECK);
    }

    private static ProbeRequest socks(int outbound, String password) {
        return request(
                new Outbound("socks-" + outbound, Protocol.SOCKS, "127.0.0.1", 1080, "user", password, null),
                "http://probe.test/generate_204");
    }

    @Test
    void exchangeWhenTheSameProbeAgainThenTheBoundExchangeIsReused() {
        ProbeRequest request = request("http://probe.test/generate_204");

        assertThat(clients.exchange(request, ProbeHop.first(request, HEADERS)))
                .isSameAs(clients.exchange(request, ProbeHop.first(request, HEADERS)));
    }

    @Test
    void exchangeWhenAnotherUrlOrARedirectThenBoundAfresh() {
        ProbeRequest request = request("http://probe.test/generate_204");
        ProbeHop first = ProbeHop.first(request, HEADERS);
        ProbeRequest other = request("http://probe.test/other");

        assertThat(clients.exchange(other, ProbeHop.first(other, HEADERS)))
                .isNotSameAs(clients.exchange(request, first));
        ProbeHop redirect = first.redirectTo("/next", 302);
        assertThat(clients.exchange(request, redirect))
                .as("a server-chosen URL is not cached")
                .isNotSameAs(clients.exchange(request, redirect));
    }

    @Test
    void exchangeWhenOutboundsAreReplacedThenTheClientsOfTheOldOnesAreDroppedOnceIdle() {
        ProbeClients rotating = newClients();
        for (int outbound = 0; outbound < 100; outbound++) {
            ProbeRequest request = socks(outbound, "old-password");
            rotating.exchange(request, ProbeHop.first(request, HEADERS));
        }
        assertThat(rotating.size()).as("a client and a first request each").isEqualTo(200);

        TIME.advance(ProbeClients.IDLE.dividedBy(2));
        for (int outbound = 0; outbound < 100; outbound++) {
            ProbeRequest request = socks(outbound, "rotated-password");
            rotating.exchange(request, ProbeHop.first(request, HEADERS));
        }
        assertThat(rotating.size())
                .as("the old ones are not idle for long enough yet")
                .isEqualTo(400);

        TIME.advance(ProbeClients.IDLE.dividedBy(2).plusNanos(1));
        ProbeRequest probedAgain = socks(0, "rotated-password");
        HttpClient.ResponseReceiver<?> kept = rotating.exchange(probedAgain, ProbeHop.first(probedAgain, HEADERS));

        assertThat(rotating.size())
                .as("only the rotated outbounds' clients are left")
                .isEqualTo(200);
        assertThat(rotating.exchange(probedAgain, ProbeHop.first(probedAgain, HEADERS)))
                .isSameAs(kept);
    }
}
