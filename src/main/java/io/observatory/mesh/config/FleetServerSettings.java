package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One {@code observatory.mesh.hub.servers[i]}: a machine of the fleet.
 *
 * @param name        unique, e.g. {@code s4}. Required
 * @param route       the group a client may be given any member of, e.g. {@code de}. Required
 * @param entryPoints the addresses its clients connect to, at least one, names unique. Required
 */
public record FleetServerSettings(
        @NotNull(message = MeshNames.EXPECTED) @Pattern(regexp = MeshNames.PATTERN, message = MeshNames.EXPECTED)
        String name,

        @NotBlank(message = "a non-blank route name") String route,
        @DefaultValue List<EntryPointSettings> entryPoints)
        implements Checked {

    public FleetServerSettings {
        entryPoints = List.copyOf(entryPoints);
    }

    @Override
    public void check(Problems problems) {
        if (entryPoints.isEmpty()) {
            problems.reject("entry-points", "none", "at least one entry point");
        }
        Map<String, Integer> indexByName = new HashMap<>();
        for (int i = 0; i < entryPoints.size(); i++) {
            Integer first = entryPoints.get(i).name() == null
                    ? null
                    : indexByName.putIfAbsent(entryPoints.get(i).name(), i);
            if (first != null) {
                problems.reject(
                        "entry-points[" + i + "].name",
                        "a unique name; " + problems.name("entry-points[" + first + "].name") + " is the same");
            }
        }
    }
}
