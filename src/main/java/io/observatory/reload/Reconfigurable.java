package io.observatory.reload;

import io.observatory.config.ObservatoryConfig;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A component that follows configuration changes. Live reload ({@code io.observatory.reload}) calls every
 * {@code Reconfigurable} bean on the writer with each valid new configuration, stage by stage
 * ({@link ReloadStage}); the start-up configuration is each component's constructor argument, not a call.
 */
public interface Reconfigurable {

    /**
     * Applies {@code next}, already bound and validated; runs on the writer thread. Settings that cannot change while
     * the service runs are kept and the call says so in a log line.
     */
    void reconfigure(ObservatoryConfig next);

    /** When in a reload this component is reached. */
    ReloadStage stage();

    /** A component reached at {@code stage} that applies each configuration with {@code apply}. */
    static Reconfigurable at(ReloadStage stage, Consumer<ObservatoryConfig> apply) {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(apply, "apply");
        return new Reconfigurable() {
            @Override
            public void reconfigure(ObservatoryConfig next) {
                apply.accept(next);
            }

            @Override
            public ReloadStage stage() {
                return stage;
            }

            @Override
            public String toString() {
                return "Reconfigurable[" + stage + ", " + apply + "]";
            }
        };
    }
}
