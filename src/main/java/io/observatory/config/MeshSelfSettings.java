package io.observatory.config;

import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.mesh.self} (witness): who this witness is and how it checks its own server.
 *
 * @param name         its name as the hub knows it; the hub refuses reports for any other. Required for a witness
 * @param checks       the local checks of its self-report, run before each report; none for an external vantage
 *                     point. Default: none
 * @param checkTimeout the deadline of one check, positive. Default: 2s
 */
public record MeshSelfSettings(
        @Nullable String name,
        @DefaultValue List<MeshSelfCheckSettings> checks,

        @DefaultValue("2s") @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration checkTimeout) {

    public MeshSelfSettings {
        name = name == null || name.isBlank() ? null : name.strip();
        checks = List.copyOf(checks);
    }
}
