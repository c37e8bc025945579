package io.observatory.observer;

/** Receives the service-level serving state: the observer started, or the service is shutting down. */
public interface ServingStatus {

    /** The active observer has started; the service serves its observation. */
    void serving();

    /** The service is shutting down; nothing will change any more. */
    void shuttingDown();
}
