package io.observatory.api.auth;

import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.observatory.config.ApiAuthSettings;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Which methods of one gRPC service are reads, and when they are open; every other method of it is a write, which
 * needs the API's credential always. A method added to a service later is a write until it is declared a read here:
 * the guard denies by default.
 *
 * @param readMethods  the reads' bare method names, e.g. {@code GetObservation}
 * @param readsOpen    whether the reads need no credential under the settings in force
 * @param openRequests per read, the requests it answers to anyone whatever the settings (grpc.health's check of the
 *                     server as a whole, which Kubernetes' probes make without a credential); judged on the call's
 *                     first message
 */
public record ServiceAccess(
        Set<String> readMethods, Predicate<ApiAuthSettings> readsOpen, Map<String, Predicate<Object>> openRequests) {

    public ServiceAccess {
        readMethods = Set.copyOf(readMethods);
        openRequests = Map.copyOf(openRequests);
    }

    /** {@code reads} are the service's reads, open unless {@code require-for-reads}; its other methods are writes. */
    public static ServiceAccess reads(MethodDescriptor<?, ?>... reads) {
        return new ServiceAccess(
                Arrays.stream(reads).map(MethodDescriptor::getBareMethodName).collect(Collectors.toSet()),
                ServiceAccess::openUnlessRequired,
                Map.of());
    }

    /** Every method of {@code service} is a read, open unless {@code require-for-reads} (health, reflection). */
    public static ServiceAccess readsOnly(ServiceDescriptor service) {
        return new ServiceAccess(
                service.getMethods().stream()
                        .map(MethodDescriptor::getBareMethodName)
                        .collect(Collectors.toSet()),
                ServiceAccess::openUnlessRequired,
                Map.of());
    }

    /** Reads are open unless {@code observatory.api.auth.require-for-reads}. */
    private static boolean openUnlessRequired(ApiAuthSettings settings) {
        return !settings.requireForReads();
    }

    /** The same reads, open also whenever {@code open} holds (an explicit opt-out for one service). */
    public ServiceAccess orOpenWhen(Predicate<ApiAuthSettings> open) {
        return new ServiceAccess(readMethods, readsOpen.or(open), openRequests);
    }

    /**
     * The same, with the requests of {@code read} that {@code open} accepts answered to anyone whatever the settings.
     *
     * @throws IllegalArgumentException when {@code read} is not one of the reads
     */
    public <ReqT> ServiceAccess withOpenRequests(MethodDescriptor<ReqT, ?> read, Predicate<ReqT> open) {
        String name = read.getBareMethodName();
        if (!readMethods.contains(name)) {
            throw new IllegalArgumentException("method: " + name + " (expected: one of the reads " + readMethods + ")");
        }
        Map<String, Predicate<Object>> requests = new HashMap<>(openRequests);
        @SuppressWarnings("unchecked") // the call of this method carries requests of its type
        Predicate<Object> byMessage = message -> open.test((ReqT) message);
        requests.put(name, byMessage);
        return new ServiceAccess(readMethods, readsOpen, requests);
    }

    /** What decides, on its first message, whether a call of {@code method} is open; {@code null} for none. */
    @Nullable
    Predicate<Object> openRequests(String method) {
        return openRequests.get(method);
    }

    /** Whether a call of {@code method} needs no credential under {@code settings}. */
    boolean open(String method, ApiAuthSettings settings) {
        return readMethods.contains(method) && readsOpen.test(settings);
    }
}
