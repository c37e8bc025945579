package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.probe.PhaseTimer.Mark;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Phase boundaries on a fake ticker. */
class PhaseTimerTest {

    private final AtomicLong now = new AtomicLong();
    private final PhaseTimer timer = new PhaseTimer(now::get, false);

    private void at(long nanos, Mark mark) {
        now.set(nanos);
        timer.stamp(mark);
    }

    @Test
    void phasesWhenOneConnectionThenSpansBetweenItsMarks() {
        at(10, Mark.CONNECT_STARTED);
        at(25, Mark.CONNECTED);
        at(65, Mark.RESPONSE_HEADERS);

        assertThat(timer.phases()).isEqualTo(new ProbePhases(ProbePhases.NOT_MEASURED, 15, ProbePhases.NOT_MEASURED,
                ProbePhases.NOT_MEASURED, 40));
        assertThat(timer.rttNanos()).isEqualTo(55);
    }

    @Test
    void stampWhenRedirectOpensASecondConnectionThenPhasesAreTheLastConnectionsAndItIsNotYetConnected() {
        at(10, Mark.CONNECT_STARTED);
        at(25, Mark.CONNECTED);
        at(65, Mark.RESPONSE_HEADERS);

        at(100, Mark.CONNECT_STARTED);

        assertThat(timer.reached(Mark.CONNECTED)).isFalse();
        assertThat(timer.reached(Mark.RESPONSE_HEADERS)).isFalse();
        at(130, Mark.CONNECTED);
        at(150, Mark.RESPONSE_HEADERS);
        assertThat(timer.phases().connectNanos()).isEqualTo(30);
        assertThat(timer.phases().firstByteNanos()).isEqualTo(20);
    }
}
