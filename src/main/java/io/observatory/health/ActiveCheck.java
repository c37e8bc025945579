package io.observatory.health;

import java.util.Objects;
import java.util.Optional;

/**
 * How one observer judges its probes ({@code observatory.standard.*} / {@code observatory.burst.*}): which HTTP
 * statuses count as success and how many consecutive results move the active state. Xray's behaviour is any status
 * and thresholds of 1: every result decides the state.
 *
 * @param expectedStatus statuses that count as success ({@code expected-status})
 * @param thresholds     hysteresis ({@code healthy-threshold}, {@code unhealthy-threshold})
 */
public record ActiveCheck(ExpectedStatus expectedStatus, ActiveHealthPolicy thresholds) {

    /** @throws NullPointerException if an argument is null */
    public ActiveCheck {
        Objects.requireNonNull(expectedStatus, "expectedStatus");
        Objects.requireNonNull(thresholds, "thresholds");
    }

    /**
     * Why a response with {@code httpStatus} is a failed probe, or empty when the status is expected.
     *
     * @return e.g. {@code unexpected HTTP status 403 (expected: 204)}
     */
    public Optional<String> unexpectedStatus(int httpStatus) {
        return expectedStatus.matches(httpStatus)
                ? Optional.empty()
                : Optional.of("unexpected HTTP status " + httpStatus + " (expected: " + expectedStatus + ")");
    }
}
