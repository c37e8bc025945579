package io.observatory.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.observatory.config.ObservatoryConfig;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.PassiveView;
import io.observatory.testing.AdsClient;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What the publisher sets in the cache, on fake time: versions only on visible changes, IP endpoints only. */
class XdsPublisherTest {

    private static final Instant NOW = Instant.parse("2026-12-04T04:00:00Z");

    private final FakeScheduler writer = new FakeScheduler();
    private final FakeScheduler thread = new FakeScheduler();
    private final SimpleCache<String> cache = new SimpleCache<>(node -> XdsPublisher.GROUP);

    private final ObservatoryConfig config = Configs.of(
            "outbounds[0].tag=a",
            "outbounds[0].protocol=direct",
            "outbounds[0].endpoint=10.0.0.1:80",
            "outbounds[1].tag=b",
            "outbounds[1].protocol=direct",
            "outbounds[1].endpoint=10.0.0.2:80",
            "outbounds[2].tag=named",
            "outbounds[2].protocol=socks",
            "outbounds[2].address=proxy.example",
            "outbounds[2].port=1080",
            "xds.clusters[0].name=all",
            "xds.clusters[0].selector[0]=");

    @Test
    void publisherWhenVerdictsChangeThenANewEndpointsVersionOnlyForWhatClientsSee() {
        ObservationStore store = new ObservationStore(
                writer, observation(health("a", HealthState.HEALTHY), health("b", HealthState.HEALTHY)));
        XdsPublisher publisher = new XdsPublisher(cache, thread, config, nanos -> {});
        publisher.follow(store);
        runAll();

        Snapshot first = cache.getSnapshot(XdsPublisher.GROUP);
        assertThat(first.clusters().resources()).containsOnlyKeys("all");
        assertThat(first.listeners().resources()).containsOnlyKeys("all");
        assertThat(first.routes().resources()).containsOnlyKeys("all");
        assertThat(AdsClient.endpoints(first.endpoints().resources().get("all")))
                .as("the host name proxy.example is no endpoint an xDS client takes")
                .containsExactly(
                        Map.entry("10.0.0.1:80", HealthStatus.HEALTHY), Map.entry("10.0.0.2:80", HealthStatus.HEALTHY));

        OutboundHealth sameVerdict = health("a", HealthState.HEALTHY);
        publish(store, List.of(new OutboundEvent.Updated(health("a", HealthState.HEALTHY), sameVerdict)));
        assertThat(publisher.snapshots())
                .as("evidence without a visible change sets nothing")
                .isEqualTo(1);

        publish(store, List.of(new OutboundEvent.Updated(sameVerdict, health("a", HealthState.UNHEALTHY))));
        Snapshot second = cache.getSnapshot(XdsPublisher.GROUP);
        assertThat(publisher.snapshots()).isEqualTo(2);
        assertThat(AdsClient.endpoints(second.endpoints().resources().get("all")))
                .containsEntry("10.0.0.1:80", HealthStatus.UNHEALTHY);
        assertThat(second.endpoints().version()).isNotEqualTo(first.endpoints().version());
        assertThat(second.clusters().version()).isEqualTo(first.clusters().version());
    }

    private void publish(ObservationStore store, List<OutboundEvent> events) {
        Map<String, OutboundHealth> next = new LinkedHashMap<>();
        store.current().all().forEach(outbound -> next.put(outbound.tag(), outbound));
        events.forEach(event -> next.put(event.tag(), ((OutboundEvent.Updated) event).now()));
        writer.execute(() -> store.publish(new ObservationUpdate(
                new Observation(next, new AvailabilityPolicy.HealthyOrPanic(0), OptionalLong.empty()), events)));
        runAll();
    }

    private void runAll() {
        writer.runDue();
        thread.runDue();
        writer.runDue();
        thread.runDue();
    }

    private static OutboundHealth health(String tag, HealthState verdict) {
        return new OutboundHealth(tag, null, PassiveView.NONE, List.of(), verdict, NOW, "test");
    }

    private static Observation observation(OutboundHealth... outbounds) {
        Map<String, OutboundHealth> byTag = new LinkedHashMap<>();
        for (OutboundHealth outbound : outbounds) {
            byTag.put(outbound.tag(), outbound);
        }
        return new Observation(byTag, new AvailabilityPolicy.HealthyOrPanic(0), OptionalLong.empty());
    }
}
