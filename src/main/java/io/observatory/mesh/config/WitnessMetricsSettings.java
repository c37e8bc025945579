package io.observatory.mesh.config;

import jakarta.validation.constraints.NotBlank;
import java.nio.file.Path;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.mesh.witness.metrics}: the witness's reading of its own server (CPU, load, memory, disk, network
 * throughput, established TCP connections), sent with each report; the hub shows the latest per server and marks them
 * stale when that report is older than its {@code no-data-after}.
 *
 * @param enabled  whether to read and send them; an external vantage point's are ignored by the hub. Default: true
 * @param diskPath a path on the file system whose size and free space to report. Default: /
 */
public record WitnessMetricsSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("/") @NotBlank(message = "a path") String diskPath) {

    /** The disk path, stripped. */
    public Path disk() {
        return Path.of(diskPath.strip());
    }
}
