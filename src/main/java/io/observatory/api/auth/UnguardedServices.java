package io.observatory.api.auth;

import io.grpc.ServerServiceDefinition;
import org.springframework.grpc.server.GrpcServerFactory;
import org.springframework.grpc.server.ServerServiceDefinitionFilter;

/**
 * Refuses to serve a gRPC service that was not bound through the {@link ApiGuard}: a service registered without a
 * guard (a new bean, or one a library adds) stops the start-up with one line naming it, rather than answering every
 * caller.
 */
final class UnguardedServices implements ServerServiceDefinitionFilter {

    private final ApiGuard guard;

    UnguardedServices(ApiGuard guard) {
        this.guard = guard;
    }

    /** @throws IllegalStateException for a service the guard does not guard */
    @Override
    public boolean filter(ServerServiceDefinition service, GrpcServerFactory factory) {
        String name = service.getServiceDescriptor().getName();
        if (!guard.guards(name)) {
            throw new IllegalStateException("gRPC service " + name
                    + " is not guarded (expected: every service registered through ApiGuard, which denies by default)");
        }
        return true;
    }
}
