package io.observatory.mesh.config;

import io.observatory.config.HttpUrl;
import io.observatory.config.StandardObserverSettings;
import java.net.URI;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.mesh.hub.probe}: how witnesses probe the entry points; the hub hands it to them with the
 * fleet.
 *
 * @param probeUrl      absolute http(s) URL requested with GET through each entry point (any response is a
 *                      success, as in Xray). Default: https://www.google.com/generate_204
 * @param probeInterval pause between two probes of one entry point by one witness, positive. Default: 10s
 * @param timeout       deadline of one probe, positive. Default: 5s (Xray's)
 */
public record MeshProbeSettings(
        @DefaultValue(StandardObserverSettings.DEFAULT_PROBE_URL) @HttpUrl
        String probeUrl,

        @DefaultValue("10s") @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration probeInterval,

        @DefaultValue("5s") @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration timeout) {

    /** The probe URL, validated. */
    public URI probeUri() {
        return URI.create(probeUrl.strip());
    }
}
