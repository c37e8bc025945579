package io.observatory.observer;

/** The observer when none is configured: probes nothing, so the observation stays empty. */
final class IdleObserver implements Observer {

    @Override
    public void start() {
        // Nothing to probe; the configuration warning already told the operator how to configure an observer.
    }

    @Override
    public void stop() {
        // Nothing runs.
    }

    @Override
    public void outboundsChanged() {
        // Nothing is observed.
    }
}
