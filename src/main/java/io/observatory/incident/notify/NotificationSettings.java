package io.observatory.incident.notify;

import io.observatory.config.Checked;
import io.observatory.config.ConfigSection;
import io.observatory.config.Problems;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.notifications}: who hears of incidents, and how. Every channel hears only the incidents this
 * replica recorded (with several replicas on one database, one of them tells), opened and — with {@code recovery} —
 * resolved; Alertmanager hears every open incident from every replica and deduplicates them itself. Fixed for the
 * process.
 *
 * @param email          e-mail over SMTP. Default: none
 * @param webhooks       HTTP POSTs, each with a unique name. Default: none
 * @param alertmanager   Alertmanager's API. Default: none
 * @param routes         which incidents go to which e-mail and webhook channels; none: every channel hears every
 *                       incident. Default: none
 * @param groupWait      how long the first incident of a message waits for others, so that ten outbounds failing at
 *                       once make one message, 0-10m. Default: 10s
 * @param repeatInterval how often a message repeats the incidents still open, 0 (never) or 1m-30d. Default: 4h
 * @param recovery       whether a resolution is told too. Default: true
 * @param queue          the most messages one channel keeps while its receiver is down, 1-100000; beyond it new ones
 *                       are dropped and counted. Default: 1000
 */
@ConfigurationProperties("observatory.notifications")
public record NotificationSettings(
        @Nullable @NestedConfigurationProperty EmailSettings email,

        @DefaultValue List<WebhookSettings> webhooks,

        @Nullable @NestedConfigurationProperty AlertmanagerSettings alertmanager,

        @DefaultValue List<NotificationRoute> routes,

        @DefaultValue("10s")
        @DurationMin(nanos = 0, message = GROUP_WAIT_EXPECTED)
        @DurationMax(minutes = 10, message = GROUP_WAIT_EXPECTED)
        Duration groupWait,

        @DefaultValue("4h")
        @DurationMin(nanos = 0, message = REPEAT_EXPECTED)
        @DurationMax(days = 30, message = REPEAT_EXPECTED)
        Duration repeatInterval,

        @DefaultValue("true") boolean recovery,

        @DefaultValue("1000") @Min(value = 1, message = QUEUE_EXPECTED) @Max(value = 100_000, message = QUEUE_EXPECTED)
        int queue)
        implements Checked {

    /** The notifications' section of the configuration; its settings take effect at start-up only. */
    public static final ConfigSection<NotificationSettings> SECTION = new ConfigSection<>() {
        @Override
        public String key() {
            return "notifications";
        }

        @Override
        public Class<NotificationSettings> type() {
            return NotificationSettings.class;
        }

        @Override
        public List<String> startUpOnly() {
            return List.of(
                    "email",
                    "webhooks",
                    "alertmanager",
                    "routes",
                    "group-wait",
                    "repeat-interval",
                    "recovery",
                    "queue");
        }
    };

    /** The channel name of the e-mail in {@link Route#channels}. */
    public static final String EMAIL = "email";

    private static final String GROUP_WAIT_EXPECTED = "a duration from 0s up to 10m0s";
    private static final String REPEAT_EXPECTED = "0s (never), or a duration from 1m0s up to 720h0m0s";
    private static final String QUEUE_EXPECTED = "from 1 up to 100000";

    public NotificationSettings {
        webhooks = List.copyOf(webhooks);
        routes = List.copyOf(routes);
    }

    /** The names of the channels routes may name: {@value #EMAIL} when set, and every webhook's. */
    public Set<String> channelNames() {
        Set<String> names = new HashSet<>();
        if (email != null) {
            names.add(EMAIL);
        }
        webhooks.forEach(webhook -> names.add(webhook.name()));
        return names;
    }

    @Override
    public void check(Problems problems) {
        if (!repeatInterval.isZero() && repeatInterval.compareTo(Duration.ofMinutes(1)) < 0) {
            problems.reject("repeat-interval", repeatInterval.toString(), REPEAT_EXPECTED);
        }
        Set<String> names = new HashSet<>();
        if (email != null) {
            names.add(EMAIL);
        }
        for (int i = 0; i < webhooks.size(); i++) {
            String name = webhooks.get(i).name();
            if (name != null && !names.add(name)) {
                problems.reject(
                        "webhooks[" + i + "].name",
                        name,
                        "a name no other webhook has, and not \"" + EMAIL + "\" (the e-mail's channel)");
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            for (int j = 0; j < routes.get(i).channels().size(); j++) {
                String channel = routes.get(i).channels().get(j);
                if (!names.contains(channel)) {
                    problems.reject(
                            "routes[" + i + "].channels[" + j + "]",
                            channel,
                            names.isEmpty()
                                    ? "a channel, but neither email nor a webhook is set"
                                    : "one of " + names.stream().sorted().toList());
                }
            }
        }
    }
}
