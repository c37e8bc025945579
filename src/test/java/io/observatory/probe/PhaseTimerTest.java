package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.probe.PhaseTimer.Mark;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Phase boundaries on a fake ticker. */
class PhaseTimerTest {

    private static final URI FIRST = URI.create("http://probe.test/");

    private final AtomicLong now = new AtomicLong();
    private final PhaseTimer timer = new PhaseTimer(now::get, FIRST, false);

    private void at(long nanos, Mark mark) {
        now.set(nanos);
        timer.stamp(mark);
    }

    @Test
    void phasesWhenOneConnectionThenSpansBetweenItsMarks() {
        at(10, Mark.CONNECT_STARTED);
        at(25, Mark.CONNECTED);
        at(65, Mark.RESPONSE_HEADERS);

        assertThat(timer.marks().phases()).isEqualTo(new ProbePhases(ProbePhases.NOT_MEASURED, 15,
                ProbePhases.NOT_MEASURED, ProbePhases.NOT_MEASURED, 40));
        assertThat(timer.rttNanos(timer.marks())).isEqualTo(55);
        assertThat(timer.marks().target()).isEqualTo(FIRST);
    }

    @Test
    void nextRequestWhenARedirectIsFollowedThenMarksAndTargetAreTheNewRequestsAndASnapshotKeepsTheOld() {
        at(10, Mark.CONNECT_STARTED);
        at(25, Mark.CONNECTED);
        at(65, Mark.RESPONSE_HEADERS);
        PhaseTimer.Marks before = timer.marks();

        URI next = URI.create("https://other.test/next");
        timer.nextRequest(next, true);

        assertThat(timer.marks().reached(Mark.CONNECTED)).isFalse();
        assertThat(timer.marks().target()).isEqualTo(next);
        assertThat(timer.marks().secure()).isTrue();
        at(100, Mark.RESOLVE_STARTED);
        at(110, Mark.CONNECT_STARTED);
        at(130, Mark.CONNECTED);
        at(150, Mark.RESPONSE_HEADERS);
        assertThat(timer.marks().phases()).isEqualTo(new ProbePhases(10, 20, ProbePhases.NOT_MEASURED,
                ProbePhases.NOT_MEASURED, 20));
        assertThat(before.reached(Mark.RESPONSE_HEADERS)).as("a snapshot never changes").isTrue();
        assertThat(before.target()).isEqualTo(FIRST);
    }
}
