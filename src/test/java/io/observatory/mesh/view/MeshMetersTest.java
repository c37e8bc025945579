package io.observatory.mesh.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.hub.MeshLedger.Report;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.probe.ProbeError;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mesh gauges of a hub on the writer, with fake time, as a scrape reads them. */
class MeshMetersTest {

    /** Route de has four servers, nl two; every server runs a witness of its own site. */
    private static final String FLEET = """
            observatory:
              mesh:
                hub:
                  streak: 3
                  quorum: 2
                  report-interval: 1s
                  servers:
                    - { name: s1, route: de, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s2, route: de, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s3, route: nl, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s4, route: nl, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s5, route: de, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s6, route: de, entry-points: [ { name: main, protocol: direct } ] }
                  witnesses:
                    - { name: w1, site: de, server: s1, certificate-subject: w1 }
                    - { name: w2, site: nl, server: s2, certificate-subject: w2 }
                    - { name: w3, site: fr, server: s3, certificate-subject: w3 }
                    - { name: w4, site: us, server: s4, certificate-subject: w4 }
                    - { name: w5, site: pl, server: s5, certificate-subject: w5 }
                    - { name: w6, site: es, server: s6, certificate-subject: w6 }
            """;

    private final FakeScheduler writer = new FakeScheduler();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ObservatoryConfig config = Configs.yaml(FLEET);
    private final ObservationUpdater updater = new ObservationUpdater(config, writer, writer.clock());
    private final MeshHub hub = new MeshHub(config.section(MeshSettings.SECTION), writer, writer.clock(), updater);
    private final Map<Integer, Long> sequences = new HashMap<>();

    MeshMetersTest() {
        new MeshMeters(updater.store(), registry);
        hub.start();
        writer.runDue();
    }

    private static PathStreak path(String server, int failures) {
        return new PathStreak(
                server,
                "main",
                failures,
                failures == 0 ? 10 : 0,
                failures == 0
                        ? new LastProbe(true, null, "", 12_000_000)
                        : new LastProbe(false, ProbeError.Kind.CONNECT_TIMEOUT, "connect timed out", 0));
    }

    /**
     * Witness {@code w<i>} on server {@code s<i>} reports every other server reached (10 successes in a row, past the
     * streak that ends a vote) but {@code cut} (3 failures).
     */
    private void report(int witness, String... cut) {
        List<PathStreak> paths = new ArrayList<>();
        for (int server = 1; server <= 6; server++) {
            String name = "s" + server;
            if (server != witness) {
                paths.add(List.of(cut).contains(name) ? path(name, 3) : path(name, 0));
            }
        }
        long sequence = sequences.merge(witness, 1L, Long::sum);
        hub.report("w" + witness, new Report(100, sequence, null, paths), outcome -> {});
        writer.runDue();
    }

    private void reportAllReached() {
        for (int witness = 1; witness <= 6; witness++) {
            report(witness);
        }
    }

    /** Everyone reaches everyone, then the witnesses of sites de and nl (a quorum) lose both servers of route nl. */
    private void cutRouteNl() {
        reportAllReached();
        report(1, "s3", "s4");
        report(2, "s3", "s4");
    }

    private double gauge(String name, String key, String value) {
        return registry.get(name).tag(key, value).gauge().value();
    }

    @Test
    void routePanicWhenEveryServerReachedThenZeroForEveryRoute() {
        reportAllReached();

        assertThat(gauge(MeshMeters.ROUTE_PANIC, "route", "nl")).isZero();
        assertThat(gauge(MeshMeters.ROUTE_PANIC, "route", "de")).isZero();
    }

    @Test
    void routePanicWhenNoServerOfTheRouteIsInRotationThenOneForThatRouteOnly() {
        cutRouteNl();

        assertThat(gauge(MeshMeters.SERVER_IN_ROTATION, "server", "s3")).isZero();
        assertThat(gauge(MeshMeters.SERVER_IN_ROTATION, "server", "s4")).isZero();
        assertThat(gauge(MeshMeters.ROUTE_PANIC, "route", "nl")).isEqualTo(1.0);
        assertThat(gauge(MeshMeters.ROUTE_PANIC, "route", "de")).isZero();
    }

    @Test
    void routePanicWhenAServerOfTheRouteIsBackThenZero() {
        cutRouteNl();

        report(1, "s4");

        assertThat(gauge(MeshMeters.SERVER_IN_ROTATION, "server", "s3")).isEqualTo(1.0);
        assertThat(gauge(MeshMeters.ROUTE_PANIC, "route", "nl")).isZero();
    }

    @Test
    void routePanicThenOneSeriesPerRouteTaggedByRouteOnly() {
        assertThat(registry.find(MeshMeters.ROUTE_PANIC).gauges())
                .extracting(gauge -> gauge.getId().getTags().toString())
                .containsExactlyInAnyOrder("[tag(route=de)]", "[tag(route=nl)]");
    }
}
