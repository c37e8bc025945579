package io.observatory.reload;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.testing.Configs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A reload reaches its targets stage by stage, whatever order they were registered in, and survives a failing one. */
@ExtendWith(OutputCaptureExtension.class)
class ReloadStageTest {

    @Test
    void reconfigureAllWhenTargetsOfEveryStageInReverseThenEachStageInOrderAndAFailureStopsNoOther(
            CapturedOutput output) {
        ObservatoryConfig next = Configs.of();
        List<ReloadStage> reached = new ArrayList<>();
        List<Reconfigurable> targets = new ArrayList<>();
        for (ReloadStage stage : ReloadStage.values()) {
            targets.add(Reconfigurable.at(stage, config -> {
                reached.add(stage);
                if (stage == ReloadStage.ACCESS) {
                    throw new IllegalStateException("access cannot follow");
                }
            }));
        }
        Collections.reverse(targets);

        ReloadConfiguration.reconfigureAll(targets, next);

        assertThat(reached).containsExactlyElementsOf(Arrays.asList(ReloadStage.values()));
        assertThat(output).contains("failed to apply the new configuration; the others still take it");
    }
}
