package io.observatory.state;

import io.observatory.config.ConfigSection;
import io.observatory.config.ObservatoryConfig;
import io.observatory.observer.ObserverRuntime;
import io.observatory.snapshot.Checkpoint;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.time.Scheduler;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Warm restart, when {@code observatory.state.directory} is set (off by default). */
@Configuration(proxyBeanMethods = false)
public class StateConfiguration {

    /** {@code observatory.state}, bound with the rest of the configuration whether warm restart is on or off. */
    @Bean
    static ConfigSection<StateSettings> stateConfigSection() {
        return StateSettings.SECTION;
    }

    /** Follows reloads last: it only needs the configuration in force for its next write. */
    @Bean
    @Conditional(DirectorySet.class)
    WarmRestart warmRestart(
            ObservatoryConfig config,
            Scheduler writer,
            Clock clock,
            ObserverRuntime runtime,
            ObservationUpdater updater,
            ObjectProvider<Checkpoint> checkpoints) {
        return new WarmRestart(
                config,
                writer,
                clock,
                runtime,
                updater,
                checkpoints.orderedStream().toList());
    }

    /**
     * Whether {@code observatory.state.directory} is set and not blank. Read as a property, not spliced into an
     * expression, so that any path works (one with a {@code '} stopped the start-up with a SpEL parse error).
     */
    static final class DirectorySet implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String directory = context.getEnvironment().getProperty("observatory.state.directory");
            return directory != null && !directory.isBlank();
        }
    }
}
