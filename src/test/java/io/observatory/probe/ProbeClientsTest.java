package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

/** What a probe's exchange reuses from the probes before it. */
class ProbeClientsTest {

    private static final ProbeHeaders HEADERS = ProbeHeaders.of(Map.of(), 150);

    private static LoopResources loops;
    private static ProbeClients clients;

    @BeforeAll
    static void startLoops() {
        loops = LoopResources.create("probe-clients-test", 1, true);
        clients = new ProbeClients(new ProbeSettings(1, null, Map.of(), null), HEADERS, loops);
    }

    @AfterAll
    static void stopLoops() {
        loops.disposeLater().block(Duration.ofSeconds(5));
    }

    private static ProbeRequest request(String url) {
        return new ProbeRequest(Outbound.direct("d"), URI.create(url), "GET", Duration.ofSeconds(2),
                ProbeRequest.Client.CONNECTIVITY_CHECK);
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
        assertThat(clients.exchange(request, redirect)).as("a server-chosen URL is not cached")
                .isNotSameAs(clients.exchange(request, redirect));
    }
}
