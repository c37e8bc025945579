package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.api.v1.ProbeErrorKind;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The enum mappings go by name, so every value of the model must have a v1 value of the same name. */
class ObservationProtosTest {

    @ParameterizedTest
    @EnumSource(HealthState.class)
    void stateWhenAnyHealthStateThenTheV1ValueOfTheSameName(HealthState state) {
        assertThat(ObservationProtos.state(state).name()).isEqualTo("HEALTH_STATE_" + state.name());
    }

    @ParameterizedTest
    @EnumSource(ProbeError.Kind.class)
    void errorKindWhenAnyKindThenTheV1EnumHasItsName(ProbeError.Kind kind) {
        assertThat(ProbeErrorKind.valueOf("PROBE_ERROR_KIND_" + kind.name()).getNumber())
                .isPositive();
    }
}
