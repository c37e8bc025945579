package io.observatory.observer;

import org.springframework.context.SmartLifecycle;

/**
 * Starts the active observer once the context is ready and stops it at shutdown. Runs in the default phase, so it
 * starts after the demo lab (phase below 0) and stops before it; the gRPC server starts before it
 * ({@link ObserverConfiguration#observerLifecycle}).
 */
final class ObserverLifecycle implements SmartLifecycle {

    private final ObserverRuntime observer;
    // volatile: start/stop and isRunning may be called from different Spring threads.
    private volatile boolean running;

    ObserverLifecycle(ObserverRuntime observer) {
        this.observer = observer;
    }

    @Override
    public void start() {
        observer.start();
        running = true;
    }

    @Override
    public void stop() {
        observer.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
