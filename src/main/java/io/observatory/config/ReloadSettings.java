package io.observatory.config;

import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.reload}: watching the files named by {@code spring.config.location} and
 * {@code spring.config.additional-location} and applying their changes without a restart.
 *
 * @param enabled  whether to watch the external configuration files and apply changes live. Default: true
 * @param interval how often the files are checked for changes, 100ms-1h (each check reads and hashes the files);
 *                 kubelet refreshes a mounted ConfigMap within about a minute, so 5 s adds little. Default: 5s
 */
public record ReloadSettings(
        @DefaultValue("true") boolean enabled,

        @DefaultValue("5s")
        @DurationMin(millis = 100, message = INTERVAL_EXPECTED)
        @DurationMax(hours = 1, message = INTERVAL_EXPECTED)
        Duration interval) {

    private static final String INTERVAL_EXPECTED = "a duration from 100ms up to 1h0m0s";
}
