package io.observatory.observer;

/**
 * Receives the service-level serving state once the observer has started. Shutdown is announced by the context-closed
 * event, which comes before any lifecycle bean (the gRPC server included) stops, so it is not signalled here.
 */
public interface ServingStatus {

    /** The active observer has started; the service serves its observation. */
    void serving();
}
