package io.observatory.mesh.protocol;

import io.observatory.probe.ProbeError;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A witness's last probe of an entry point, as it reported it.
 *
 * @param success   whether it succeeded
 * @param errorKind its error's kind, {@code null} on success
 * @param error     its error's reason, empty on success
 * @param rttNanos  its round-trip time, 0 when it failed
 */
public record LastProbe(boolean success, ProbeError.@Nullable Kind errorKind, String error, long rttNanos) {

    public LastProbe {
        Objects.requireNonNull(error, "error");
    }
}
