package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProbePhasesTest {

    @Test
    void measuredWhenEveryPhaseRanThenAllInPathOrder() {
        ProbePhases phases = new ProbePhases(1, 2, 3, 4, 5);

        assertThat(phases.measured())
                .containsExactly(
                        entry("dns", 1L),
                        entry("connect", 2L),
                        entry("proxy_handshake", 3L),
                        entry("tls", 4L),
                        entry("first_byte", 5L));
    }

    @Test
    void measuredWhenPhasesNotMeasuredThenAbsent() {
        ProbePhases phases = new ProbePhases(
                ProbePhases.NOT_MEASURED,
                2,
                ProbePhases.NOT_MEASURED,
                ProbePhases.NOT_MEASURED,
                ProbePhases.NOT_MEASURED);

        assertThat(phases.measured()).containsExactly(entry("connect", 2L));
        assertThat(ProbePhases.NONE.measured()).isEmpty();
    }

    private static java.util.Map.Entry<String, Long> entry(String phase, long nanos) {
        return java.util.Map.entry(phase, nanos);
    }
}
