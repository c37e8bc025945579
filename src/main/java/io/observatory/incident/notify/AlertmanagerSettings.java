package io.observatory.incident.notify;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.notifications.alertmanager}: the open incidents as alerts, as Prometheus sends its own.
 *
 * @param url            Alertmanager's base URL, e.g. {@code http://alertmanager:9093}; alerts go to
 *                       {@code /api/v2/alerts} under it. Required
 * @param resendInterval how often the firing alerts are sent again (Prometheus's {@code --rules.alert.resend-delay}),
 *                       1s-1h; an alert is valid four times as long. Default: 1m
 * @param timeout        how long one POST may take, 1s-5m. Default: 10s
 */
public record AlertmanagerSettings(
        @Nullable String url,

        @DefaultValue("1m")
        @DurationMin(seconds = 1, message = "a duration from 1s up to 1h0m0s")
        @DurationMax(hours = 1, message = "a duration from 1s up to 1h0m0s")
        Duration resendInterval,

        @DefaultValue("10s")
        @DurationMin(seconds = 1, message = SettingsChecks.TIMEOUT_EXPECTED)
        @DurationMax(minutes = 5, message = SettingsChecks.TIMEOUT_EXPECTED)
        Duration timeout)
        implements Checked {

    @Override
    public void check(Problems problems) {
        if (url == null || !SettingsChecks.httpUrl(url)) {
            problems.reject(
                    "url", String.valueOf(url), "Alertmanager's http or https base URL, e.g. http://alertmanager:9093");
        }
    }
}
