package io.observatory.api;

import java.util.concurrent.CompletableFuture;
import org.springframework.context.ApplicationListener;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * Captures the port the real gRPC server bound (tests run it on port 0); register it as a bean in a test
 * configuration.
 */
public final class GrpcPortListener implements ApplicationListener<GrpcServerStartedEvent> {

    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    @Override
    public void onApplicationEvent(GrpcServerStartedEvent event) {
        port.complete(event.getPort());
    }

    /** The bound port; the server has started before any test method runs. */
    public int port() {
        return port.getNow(-1);
    }
}
