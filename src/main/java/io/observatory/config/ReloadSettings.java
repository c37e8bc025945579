package io.observatory.config;

import io.observatory.text.GoDuration;
import java.time.Duration;

/**
 * Validated live-reload settings.
 *
 * @param enabled whether the external configuration files are watched
 * @param interval how often they are checked; positive, at most {@link #MAX_INTERVAL}
 */
public record ReloadSettings(boolean enabled, Duration interval) {

    /** Default check interval: kubelet refreshes a mounted ConfigMap within about a minute, so 5 s adds little. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

    /** Largest accepted check interval. */
    public static final Duration MAX_INTERVAL = Duration.ofHours(1);

    /**
     * Validates {@code observatory.reload}.
     *
     * @throws InvalidConfigException when the interval is not positive or above {@link #MAX_INTERVAL}
     */
    public static ReloadSettings from(ObservatoryProperties.ReloadProperties reload) {
        Duration interval = reload.getInterval();
        if (interval == null || interval.isNegative() || interval.isZero() || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new InvalidConfigException("observatory.reload.interval",
                    interval == null ? null : GoDuration.format(interval),
                    "a positive duration up to " + GoDuration.format(MAX_INTERVAL));
        }
        return new ReloadSettings(reload.isEnabled(), interval);
    }
}
