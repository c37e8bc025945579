package io.observatory.mesh.api;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.SecurityLevel;
import io.grpc.Status;
import io.observatory.api.auth.Authorization;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A witness's bearer token as gRPC call credentials: attached to a call only over TLS, or over plaintext to a hub on
 * a loopback address, or when the operator opted in ({@code observatory.mesh.witness.token-over-plaintext}); any other
 * call fails {@code UNAUTHENTICATED} on the witness's side before it is sent, so the token never crosses a network in
 * clear text by accident (grpc-java's {@code CallCredentials} see each call's {@link SecurityLevel}). The token is read
 * on the call's executor, as a file may take a moment.
 */
final class WitnessCredentials extends CallCredentials {

    private final Supplier<String> token;
    private final boolean plaintextAllowed;

    /**
     * @param token            the token, asked for each call
     * @param plaintextAllowed whether the hub may be reached without TLS: a loopback address, or the operator's
     *                         opt-in
     */
    WitnessCredentials(Supplier<String> token, boolean plaintextAllowed) {
        this.token = token;
        this.plaintextAllowed = plaintextAllowed;
    }

    @Override
    public void applyRequestMetadata(RequestInfo request, Executor executor, MetadataApplier applier) {
        if (request.getSecurityLevel() != SecurityLevel.PRIVACY_AND_INTEGRITY && !plaintextAllowed) {
            applier.fail(Status.UNAUTHENTICATED.withDescription("the witness's bearer token is not sent to "
                    + request.getAuthority() + " over plaintext (expected: observatory.mesh.witness.hub-tls.enabled:"
                    + " true, or observatory.mesh.witness.token-over-plaintext: true on a private network)"));
            return;
        }
        executor.execute(() -> {
            Metadata headers = new Metadata();
            headers.put(Authorization.KEY, "Bearer " + token.get());
            applier.apply(headers);
        });
    }
}
