package io.observatory.health;

/**
 * How one real call through an outbound ended, as a balancer reports it for passive health (silky, YARP).
 */
public enum CallOutcome {
    /** The call completed as the caller expected. */
    SUCCESS,
    /** No usable response: the connection failed, timed out or was reset. Counts for every passive policy. */
    TRANSPORT_FAILURE,
    /**
     * A response arrived but its status was a failure (e.g. HTTP 5xx). Counts for {@link ConsecutiveFailuresPolicy}
     * (silky counts every failed call) but not for {@link TransportFailureRatePolicy} (YARP ignores it).
     */
    APPLICATION_FAILURE;

    /** Whether the call failed, whatever the kind. */
    public boolean failed() {
        return this != SUCCESS;
    }
}
