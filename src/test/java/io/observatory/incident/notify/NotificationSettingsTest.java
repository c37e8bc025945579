package io.observatory.incident.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Configs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad notification settings stop the start-up with one line naming the property, the value and what is expected. */
class NotificationSettingsTest {

    private static final String EMAIL = "notifications.email.host=smtp.example.test";
    private static final String FROM = "notifications.email.from=observatory@example.test";
    private static final String TO = "notifications.email.to[0]=oncall@example.test";

    @Test
    void bindWhenWebhookUrlIsNotHttpThenOneLine() {
        assertThat(Configs.rejection("notifications.webhooks[0].name=ops", "notifications.webhooks[0].url=ftp://x/y"))
                .as("a webhook's URL is a credential (Slack's and Discord's hold a key): masked")
                .isEqualTo("observatory.notifications.webhooks[0].url: ****** (expected: an http or https URL with a"
                        + " host, e.g. https://hooks.example.com/x)");
    }

    @Test
    void bindWhenEmailHasNoHostThenOneLine() {
        assertThat(Configs.rejection(FROM, TO))
                .isEqualTo(
                        "observatory.notifications.email.host: (none) (expected: the SMTP server's host name or address)");
    }

    @Test
    void bindWhenEmailPortOutOfRangeThenOneLine() {
        assertThat(Configs.rejection(EMAIL, FROM, TO, "notifications.email.port=70000"))
                .isEqualTo("observatory.notifications.email.port: 70000 (expected: a port from 1 up to 65535)");
    }

    @Test
    void bindWhenPasswordFileIsMissingThenOneLine(@TempDir Path dir) {
        Path missing = dir.resolve("missing");
        assertThat(Configs.rejection(
                        EMAIL,
                        FROM,
                        TO,
                        "notifications.email.username=observatory",
                        "notifications.email.password-file=" + missing))
                .isEqualTo("observatory.notifications.email.password-file: " + missing
                        + " (expected: a file this process may read)");
    }

    @Test
    void bindWhenRouteNamesAnUnknownChannelThenOneLineListingTheKnownOnes() {
        assertThat(Configs.rejection(
                        EMAIL,
                        FROM,
                        TO,
                        "notifications.webhooks[0].name=ops",
                        "notifications.webhooks[0].url=https://hooks.example.test/x",
                        "notifications.routes[0].channels[0]=pager"))
                .isEqualTo("observatory.notifications.routes[0].channels[0]: pager (expected: one of [email, ops])");
    }

    @Test
    void bindWhenTelegramWithoutTokenThenOneLine() {
        assertThat(Configs.rejection(
                        "notifications.webhooks[0].name=tg",
                        "notifications.webhooks[0].format=telegram",
                        "notifications.webhooks[0].chat-id=-100123"))
                .isEqualTo("observatory.notifications.webhooks[0].token: (none) (expected: a Telegram bot's token (or"
                        + " token-file), since the format is telegram)");
    }

    @Test
    void bindWhenAlertmanagerUrlIsNotHttpThenOneLine() {
        assertThat(Configs.rejection("notifications.alertmanager.url=alertmanager:9093"))
                .startsWith("observatory.notifications.alertmanager.url: alertmanager:9093 (expected: Alertmanager's");
    }
}
