package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealth;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.stats.HealthPingStats;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.NotesPart;
import io.observatory.testing.ObserverOutput;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ObservatoryEndpointTest {

    private static final Instant SEEN = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant TRIED = Instant.parse("2026-11-29T10:00:30Z");

    private final FakeScheduler scheduler = new FakeScheduler();
    private final ObservatoryConfig config = Configs.direct(List.of("proxy_de", "burst_us"));
    private final ObservationUpdater updater = new ObservationUpdater(config, scheduler, scheduler.clock());
    private final ObservatoryEndpoint endpoint = new ObservatoryEndpoint(updater.store(), List.of());
    private final JsonMapper json = JsonMapper.builder().build();

    private void observe(OutboundStatus status) {
        scheduler.execute(() -> ObserverOutput.publish(updater, List.of(status)));
        scheduler.runDue();
    }

    @Test
    void observationWhenACapabilityPartHasSomethingToShowThenItsMemberAfterTheStatusesAndNoneWhileEmpty() {
        ObservatoryEndpoint withNotes = new ObservatoryEndpoint(updater.store(), List.of(new NotesPart()));
        String empty = json.writeValueAsString(withNotes.observation());

        scheduler.execute(() -> updater.publish(NotesPart.PART, "maintenance at 22:00", Map.of()));
        scheduler.runDue();

        assertThat(empty).isEqualTo("{\"status\":[]}");
        assertThat(json.writeValueAsString(withNotes.observation()))
                .isEqualTo("{\"status\":[],\"notes\":{\"text\":\"maintenance at 22:00\"}}");
    }

    @Test
    void observationWhenNothingPublishedThenEmptyStatusList() {
        assertThat(json.writeValueAsString(endpoint.observation())).isEqualTo("{\"status\":[]}");
    }

    @Test
    void observationWhenStandardProbeFailedThenXrayFieldsAndTheClassifiedLastProbe() {
        ProbeResult refused = new ProbeResult(
                "proxy_de",
                false,
                1_500_000,
                new ProbePhases(
                        ProbePhases.NOT_MEASURED,
                        1_200_000,
                        ProbePhases.NOT_MEASURED,
                        ProbePhases.NOT_MEASURED,
                        ProbePhases.NOT_MEASURED),
                0,
                TRIED,
                TRIED,
                new ProbeError(
                        ProbeError.Kind.CONNECTION_REFUSED,
                        ProbeError.Hop.PROXY,
                        "outbound proxy_de (socks 10.0.0.5:1080): connection refused by 10.0.0.5:1080",
                        null));
        OutboundStatus alive = new OutboundStatus(
                "proxy_de", true, 8, "", SEEN, SEEN, null, null, new ActiveHealth(HealthState.HEALTHY, 1, 0), "");
        observe(OutboundStatus.afterProbe(
                alive, refused, TRIED, new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1))));

        assertThat(json.writeValueAsString(endpoint.observation()))
                .isEqualTo(
                        "{\"status\":[{"
                                + "\"outbound_tag\":\"proxy_de\",\"alive\":false,\"delay\":99999999,"
                                + "\"last_error_reason\":\"outbound proxy_de (socks 10.0.0.5:1080): connection refused by "
                                + "10.0.0.5:1080\",\"last_seen_time\":1795946400,\"last_try_time\":1795946430,"
                                + "\"last_probe\":{\"success\":false,\"rtt_nanos\":1500000,\"phases_nanos\":{\"connect\":1200000},"
                                + "\"error_kind\":\"connection_refused\",\"error_hop\":\"proxy\"},\"verdict\":\"unhealthy\"}]}");
    }

    @Test
    void observationWhenBurstThenHealthPingInNanosAndNoLastProbe() {
        observe(OutboundStatus.fromBurst(
                "burst_us",
                new HealthPingStats(10, 2, 1_000_000, 61_999_999, 70_000_000, 50_000_000),
                new ActiveHealth(HealthState.HEALTHY, 1, 0),
                "2/10 samples failed"));

        assertThat(json.writeValueAsString(endpoint.observation()))
                .isEqualTo("{\"status\":[{"
                        + "\"outbound_tag\":\"burst_us\",\"alive\":true,\"delay\":61,\"last_error_reason\":\"\","
                        + "\"last_seen_time\":0,\"last_try_time\":0,\"health_ping\":{\"all\":10,\"fail\":2,"
                        + "\"deviation\":1000000,\"average\":61999999,\"max\":70000000,\"min\":50000000},"
                        + "\"verdict\":\"healthy\"}]}");
    }
}
