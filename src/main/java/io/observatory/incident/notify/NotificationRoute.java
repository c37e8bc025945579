package io.observatory.incident.notify;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import java.util.List;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One {@code observatory.notifications.routes[i]}: the incidents some channels hear. An incident is told on every
 * channel of every route it matches; a route matches what all of its non-empty lists match.
 *
 * @param channels   the channels: {@code email} and webhook names, at least one. Default: none
 * @param subjects   subject prefixes, e.g. {@code server/} or {@code outbound/eu-}; none: every subject. Default:
 *                   none
 * @param kinds      kinds, e.g. {@code BLOCKED}; none: every kind. Default: none
 * @param severities {@code critical}, {@code warning}; none: both. Default: none
 */
public record NotificationRoute(
        @DefaultValue List<String> channels,
        @DefaultValue List<String> subjects,
        @DefaultValue List<String> kinds,
        @DefaultValue List<String> severities)
        implements Checked {

    public NotificationRoute {
        channels = List.copyOf(channels);
        subjects = List.copyOf(subjects);
        kinds = List.copyOf(kinds);
        severities = List.copyOf(severities);
    }

    @Override
    public void check(Problems problems) {
        if (channels.isEmpty()) {
            problems.reject("channels", "none", "at least one channel");
        }
        for (int i = 0; i < severities.size(); i++) {
            if (!severities.get(i).equals("critical") && !severities.get(i).equals("warning")) {
                problems.reject("severities[" + i + "]", severities.get(i), "critical or warning");
            }
        }
        for (int i = 0; i < kinds.size(); i++) {
            if (!kinds.get(i).matches("[A-Z][A-Z_]*")) {
                problems.reject("kinds[" + i + "]", kinds.get(i), "a kind in upper case, e.g. BLOCKED");
            }
        }
    }
}
