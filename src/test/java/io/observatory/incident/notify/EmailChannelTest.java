package io.observatory.incident.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.incident.notify.Notice.Change;
import io.observatory.incident.notify.Notice.Entry;
import io.observatory.testing.NotificationReceivers;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The e-mail channel against a real SMTP server (aiosmtpd): delivered, or refused for good when the server answers
 * 550 for a recipient — dropped, not retried forever ahead of every later message.
 */
class EmailChannelTest {

    @TempDir
    Path dir;

    private NotificationReceivers receivers;

    @AfterEach
    void stop() {
        if (receivers != null) {
            receivers.close();
        }
    }

    @Test
    void sendWhenTheServerRefusesTheRecipientForGoodThenUndeliverableWithItsCode() throws Exception {
        receivers = NotificationReceivers.start(dir, false);

        assertThatThrownBy(() -> channel("nobody@example.test").send(notice()))
                .isInstanceOf(Channel.Undeliverable.class)
                .hasMessageContaining("550");
        channel("oncall@example.test").send(notice());

        assertThat(receivers.messages()).hasSize(1);
        assertThat(receivers.envelope(1)).contains("oncall@example.test");
    }

    private EmailChannel channel(String to) {
        return new EmailChannel(
                new EmailSettings(
                        "127.0.0.1",
                        receivers.smtpPort(),
                        null,
                        null,
                        null,
                        false,
                        "observatory@example.test",
                        List.of(to),
                        null,
                        Duration.ofSeconds(10)),
                Clock.systemUTC());
    }

    private static Notice notice() {
        return new Notice(
                List.of(new Entry(Change.OPENED, NoticeTextTest.incident("server/s4", "BLOCKED", "why", List.of()))));
    }
}
