package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.observatory.health.HealthState;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.PassiveView;
import io.observatory.testing.SyntheticStatuses;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class OutboundRowTest {

    private static final Instant MEASURED = Instant.parse("2026-12-01T10:00:00Z");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void ofWhenTheStatusIsRestoredThenTheRowSaysWhenItWasMeasuredAndOnlyThen() {
        OutboundStatus fresh = SyntheticStatuses.status("proxy_a", true);

        DocumentContext restored = row(fresh.asRestored(MEASURED));
        DocumentContext measured = row(fresh);

        assertThat(restored.<Long>read("$.restored")).isEqualTo(MEASURED.toEpochMilli());
        assertThat(restored.<String>read("$.active")).isEqualTo("healthy");
        assertThat(measured.<Map<String, Object>>read("$")).doesNotContainKey("restored");
    }

    private static DocumentContext row(OutboundStatus status) {
        OutboundHealth health = new OutboundHealth(
                status.tag(),
                status,
                PassiveView.NONE,
                List.of(),
                HealthState.HEALTHY,
                MEASURED,
                "active unknown -> healthy: probe succeeded");
        return JsonPath.parse(JSON.writeValueAsString(OutboundRow.of(health, RttSamples.NONE)));
    }
}
