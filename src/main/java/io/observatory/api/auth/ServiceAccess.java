package io.observatory.api.auth;

import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.observatory.config.ApiAuthSettings;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Which methods of one gRPC service are reads, and when they are open; every other method of it is a write, which
 * needs the API's credential always. A method added to a service later is a write until it is declared a read here:
 * the guard denies by default.
 *
 * @param readMethods the reads' bare method names, e.g. {@code GetObservation}
 * @param readsOpen   whether the reads need no credential under the settings in force
 */
public record ServiceAccess(Set<String> readMethods, Predicate<ApiAuthSettings> readsOpen) {

    public ServiceAccess {
        readMethods = Set.copyOf(readMethods);
    }

    /** {@code reads} are the service's reads, open unless {@code require-for-reads}; its other methods are writes. */
    public static ServiceAccess reads(MethodDescriptor<?, ?>... reads) {
        return new ServiceAccess(
                Arrays.stream(reads).map(MethodDescriptor::getBareMethodName).collect(Collectors.toSet()),
                ServiceAccess::openUnlessRequired);
    }

    /** Every method of {@code service} is a read, open unless {@code require-for-reads} (health, reflection). */
    public static ServiceAccess readsOnly(ServiceDescriptor service) {
        return new ServiceAccess(
                service.getMethods().stream()
                        .map(MethodDescriptor::getBareMethodName)
                        .collect(Collectors.toSet()),
                ServiceAccess::openUnlessRequired);
    }

    /** Reads are open unless {@code observatory.api.auth.require-for-reads}. */
    private static boolean openUnlessRequired(ApiAuthSettings settings) {
        return !settings.requireForReads();
    }

    /** The same reads, open also whenever {@code open} holds (an explicit opt-out for one service). */
    public ServiceAccess orOpenWhen(Predicate<ApiAuthSettings> open) {
        return new ServiceAccess(readMethods, readsOpen.or(open));
    }

    /** Whether a call of {@code method} needs no credential under {@code settings}. */
    boolean open(String method, ApiAuthSettings settings) {
        return readMethods.contains(method) && readsOpen.test(settings);
    }
}
