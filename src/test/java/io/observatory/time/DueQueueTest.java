package io.observatory.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class DueQueueTest {

    private final DueQueue<String> queue = new DueQueue<>();

    @Test
    void takeDueWhenKeysAreDueAtDifferentTimesThenOnlyThoseDueComeOutEarliestFirst() {
        queue.set("c", 30);
        queue.set("a", 10);
        queue.set("b", 20);

        assertThat(queue.takeDue(20)).containsExactly("a", "b");
        assertThat(queue.earliest()).isEqualTo(30);
        assertThat(queue.takeDue(29)).isEmpty();
        assertThat(queue.takeDue(30)).containsExactly("c");
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.earliest()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void setWhenAKeyGetsANewTimeThenOnlyTheNewTimeCounts() {
        queue.set("a", 10);
        queue.set("a", 50);

        assertThat(queue.earliest()).isEqualTo(50);
        assertThat(queue.takeDue(10)).isEmpty();
        assertThat(queue.takeDue(50)).containsExactly("a");
    }

    @Test
    void setWhenNeverThenTheKeyIsNoLongerDue() {
        queue.set("a", 10);
        queue.set("a", Long.MAX_VALUE);

        assertThat(queue.takeDue(Long.MAX_VALUE - 1)).isEmpty();
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void removeAndRetainWhenKeysLeaveThenTheyAreNeverTaken() {
        queue.set("a", 10);
        queue.set("b", 20);
        queue.set("c", 30);

        queue.remove("a");
        queue.retain(Set.of("c"));

        assertThat(queue.earliest()).isEqualTo(30);
        assertThat(queue.takeDue(100)).containsExactly("c");
    }

    @Test
    void setWhenOneKeyIsRescheduledManyTimesThenTheQueueStaysSmallAndExact() {
        for (long at = 1_000; at > 0; at--) {
            queue.set("a", at);
        }
        queue.set("b", 5_000);

        assertThat(queue.earliest()).isEqualTo(1);
        assertThat(queue.takeDue(4_999)).containsExactly("a");
        assertThat(queue.takeDue(5_000)).containsExactly("b");
    }
}
