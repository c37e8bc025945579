package io.observatory.incident.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.incident.notify.Notice.Change;
import io.observatory.incident.notify.Notice.Entry;
import io.observatory.testing.FakeScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A channel's queue on fake time: retries with doubling backoff in order, one log line per outage, its bound. */
@ExtendWith(OutputCaptureExtension.class)
class ChannelQueueTest {

    private final FakeScheduler thread = new FakeScheduler();
    private final List<String> delivered = new ArrayList<>();
    private int failuresLeft;

    private final Channel channel = new Channel() {
        @Override
        public String name() {
            return "ops";
        }

        @Override
        public void send(Notice notice) throws IOException {
            if (failuresLeft > 0) {
                failuresLeft--;
                throw new IOException("HTTP 503");
            }
            delivered.add(notice.entries().get(0).incident().subject());
        }
    };

    @Test
    void offerWhenTheReceiverIsDownThenRetriedAfter1And2And4SecondsAndDeliveredInOrder(CapturedOutput output) {
        ChannelQueue queue = new ChannelQueue(channel, thread, 10);
        failuresLeft = 3;

        queue.offer(notice("outbound/a"));
        queue.offer(notice("outbound/b"));
        thread.runDue();
        thread.advance(Duration.ofSeconds(1));
        thread.advance(Duration.ofSeconds(2));
        assertThat(delivered).isEmpty();
        thread.advance(Duration.ofMillis(3999));
        assertThat(delivered).isEmpty();
        thread.advance(Duration.ofMillis(1));

        assertThat(delivered).containsExactly("outbound/a", "outbound/b");
        assertThat(queue.failures()).isEqualTo(3);
        assertThat(queue.sent()).isEqualTo(2);
        assertThat(output.getOut())
                .containsOnlyOnce("ops: cannot deliver (HTTP 503); retrying, 2 notices waiting")
                .containsOnlyOnce("ops: delivering again after 3 failed attempts");
    }

    @Test
    void offerWhenTheQueueIsFullThenTheNewestIsDroppedAndCounted() {
        ChannelQueue queue = new ChannelQueue(channel, thread, 2);
        failuresLeft = 1;

        queue.offer(notice("outbound/a"));
        queue.offer(notice("outbound/b"));
        queue.offer(notice("outbound/c"));
        thread.runDue();
        thread.advance(Duration.ofSeconds(1));

        assertThat(delivered).containsExactly("outbound/a", "outbound/b");
        assertThat(queue.dropped()).isEqualTo(1);
    }

    @Test
    void offerWhenRefusedForGoodThenDroppedAndTheNextGoesOut() {
        List<String> seen = new ArrayList<>();
        Channel refusing = new Channel() {
            @Override
            public String name() {
                return "ops";
            }

            @Override
            public void send(Notice notice) throws Undeliverable {
                String subject = notice.entries().get(0).incident().subject();
                if (subject.equals("outbound/a")) {
                    throw new Undeliverable("HTTP 400 \"bad payload\"");
                }
                seen.add(subject);
            }
        };
        ChannelQueue queue = new ChannelQueue(refusing, thread, 10);

        queue.offer(notice("outbound/a"));
        queue.offer(notice("outbound/b"));
        thread.runDue();

        assertThat(seen).containsExactly("outbound/b");
        assertThat(queue.dropped()).isEqualTo(1);
    }

    private static Notice notice(String subject) {
        return new Notice(
                List.of(new Entry(Change.OPENED, NoticeTextTest.incident(subject, "UNHEALTHY", "x", List.of()))));
    }
}
