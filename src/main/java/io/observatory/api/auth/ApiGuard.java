package io.observatory.api.auth;

import io.grpc.BindableService;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.observatory.config.ApiAuthSettings;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLSession;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards every gRPC service of the server, each with an interceptor of its own
 * ({@link ServerInterceptors#intercept}), and denies by default: a method is a write, which needs the API's
 * credential, unless its service declared it a read ({@link ServiceAccess}); reads need the credential too with
 * {@code observatory.api.auth.require-for-reads}. A service with an authentication of its own (the mesh witnesses')
 * is bound through {@link #guardedBy}. Only a guarded service may be served ({@link UnguardedServices} refuses any
 * other at start-up).
 *
 * <p>The credential is either a verified TLS client certificate (the gRPC server runs with mTLS and the call's
 * {@link Grpc#TRANSPORT_ATTR_SSL_SESSION} has peer certificates) none of whose subject CNs is a {@link
 * ForeignPrincipals foreign principal}, or {@code authorization: Bearer <token>} metadata matching the configured
 * {@link ApiToken}. Any refusal is {@code UNAUTHENTICATED} (gRPC's code for "the request does not have valid
 * authentication credentials"; {@code PERMISSION_DENIED} is for an identified caller who lacks a permission, and a
 * valid credential here grants the whole API). The description says what was missing or wrong, never the token.
 * Refusals are logged at DEBUG.
 *
 * <p>The same rules guard the status page's data on the management HTTP port ({@link #httpReadRefusal}), so one
 * {@code require-for-reads} and one token cover both. Costs one interceptor per service and nothing per call beyond a
 * set lookup and, for a guarded call, the token comparison.
 */
public final class ApiGuard {

    static final String MISSING = "missing bearer token or client certificate";
    static final String INVALID = "invalid bearer token";
    static final String NOTHING_CONFIGURED = "no API token is configured and the call has no client certificate:"
            + " the operator configures observatory.api.auth.token-file or observatory.api.auth.token-env, or mTLS"
            + " (spring.grpc.server.ssl.client-auth)";
    static final String HTTP_MISSING = "missing bearer token (expected: the header Authorization: Bearer <token>)";
    static final String HTTP_NOTHING_CONFIGURED = "reads need the API token and none is configured: the operator"
            + " configures observatory.api.auth.token-file or observatory.api.auth.token-env (a client certificate"
            + " authorizes gRPC calls only)";

    private static final Logger log = LoggerFactory.getLogger(ApiGuard.class);

    private final Function<ApiAuthSettings, ApiToken> tokens;
    private final boolean trustClientCertificates;
    private final List<ForeignPrincipals> foreign;
    private final Set<String> guarded = ConcurrentHashMap.newKeySet();
    // Replaced whole on reload; every call reads it without locking.
    private volatile Rules rules;

    /**
     * @param settings                the settings at startup
     * @param tokens                  makes the token {@code settings} name (see {@link ApiToken#of})
     * @param trustClientCertificates whether the server's TLS asks for client certificates and verifies them
     *                                ({@code spring.grpc.server.ssl.client-auth} not {@code none} and
     *                                {@code spring.grpc.server.ssl.secure}, default true); when false a client
     *                                certificate is not a credential, only a bearer token is
     * @param foreign                 subjects whose certificates are no API credential
     * @throws IllegalStateException if the configured token cannot be read
     */
    public ApiGuard(
            ApiAuthSettings settings,
            Function<ApiAuthSettings, ApiToken> tokens,
            boolean trustClientCertificates,
            List<ForeignPrincipals> foreign) {
        this.tokens = tokens;
        this.trustClientCertificates = trustClientCertificates;
        this.foreign = List.copyOf(foreign);
        rules = new Rules(settings, tokens.apply(settings));
    }

    /**
     * {@code service} behind the API's credential rules: its reads as {@code access} says, every other method a write.
     *
     * @return the service to register with the gRPC server in place of {@code service}
     */
    public BindableService guard(BindableService service, ServiceAccess access) {
        return guardedBy(service, new Guard(access));
    }

    /**
     * {@code service} behind an authentication of its own, which refuses every call without its credential (the mesh
     * witnesses': their calls carry a witness's credential, not the API's).
     *
     * @return the service to register with the gRPC server in place of {@code service}
     */
    public BindableService guardedBy(BindableService service, ServerInterceptor authentication) {
        ServerServiceDefinition definition = ServerInterceptors.intercept(service.bindService(), authentication);
        guarded.add(definition.getServiceDescriptor().getName());
        return () -> definition;
    }

    /** Whether the service of {@code serviceName} was bound through this guard. */
    public boolean guards(String serviceName) {
        return guarded.contains(serviceName);
    }

    /** One line on what callers need, for the startup log, e.g. {@code writes need ... ; reads are open}. */
    public String describe() {
        Rules current = rules;
        String credentials = current.token().configured()
                ? "the bearer token from the " + current.token().source()
                        + (trustClientCertificates ? " or a verified client certificate" : "")
                : trustClientCertificates ? "a verified client certificate (no API token is configured)" : null;
        String reads = "; reads "
                + (!current.settings().requireForReads()
                        ? "are open"
                        : current.settings().xrayReadsOpen() ? "need the same, but Xray's stay open" : "need the same");
        if (credentials == null) {
            return "API writes are refused: neither an API token (observatory.api.auth.token-file or token-env) nor"
                    + " mTLS client authentication (spring.grpc.server.ssl.client-auth) is configured" + reads;
        }
        return "API writes need " + credentials + reads;
    }

    /**
     * Applies reloaded settings: a different token source or read rule takes effect for the next call; unchanged
     * settings keep the token in hand. A token that cannot be read keeps the settings in force.
     */
    public void reconfigure(ApiAuthSettings next) {
        Rules current = rules;
        if (current.settings().equals(next)) {
            return;
        }
        try {
            rules = new Rules(next, tokens.apply(next));
            log.info("API authentication changed: {}", describe());
        } catch (IllegalStateException e) {
            log.warn("API authentication unchanged, the new token cannot be used: {}", e.getMessage());
        }
    }

    /**
     * Why a read over HTTP — the status page's data on the management port — is refused, or {@code null} when it
     * may go ahead: open unless {@code require-for-reads}, as a read over gRPC; then it needs exactly one
     * {@code Authorization: Bearer <token>} header with the API token, refused with the same descriptions (a missing
     * token and a server without one say so in HTTP's terms). A client certificate is no credential here. Any
     * thread; follows reloads like the gRPC calls.
     *
     * @param authorizations the request's {@code Authorization} header values, in order; empty when it has none
     */
    public @Nullable String httpReadRefusal(List<String> authorizations) {
        Rules current = rules;
        if (!current.settings().requireForReads()) {
            return null;
        }
        return refusal(current.token(), Authorization.ofHttp(authorizations), HTTP_MISSING, HTTP_NOTHING_CONFIGURED);
    }

    /** Why the call is refused, or {@code null} when its credentials are the API's. */
    private @Nullable String refusal(ApiToken token, ServerCall<?, ?> call, Metadata headers) {
        SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        if (trustClientCertificates && ClientCertificates.present(session)) {
            // Any CN that names a foreign principal (a mesh witness) disqualifies the certificate, however many it has.
            List<String> subjects = ClientCertificates.subjectCommonNames(session);
            if (subjects.stream()
                    .noneMatch(subject -> foreign.stream().anyMatch(principals -> principals.contains(subject)))) {
                return null;
            }
        }
        return refusal(token, Authorization.of(headers), MISSING, NOTHING_CONFIGURED);
    }

    /**
     * Why {@code presented} does not carry the API token, or {@code null} when it does, in the words of the protocol
     * it came by ({@code missing}, {@code nothingConfigured}).
     */
    private static @Nullable String refusal(
            ApiToken token, Authorization presented, String missing, String nothingConfigured) {
        if (presented instanceof Authorization.Unusable unusable) {
            return unusable.reason();
        }
        if (!token.configured()) {
            return nothingConfigured;
        }
        if (presented instanceof Authorization.Bearer bearer) {
            return token.matches(bearer.token()) ? null : INVALID;
        }
        return missing;
    }

    /** The interceptor of one service: its reads as declared, every other method a write. */
    private final class Guard implements ServerInterceptor {

        private final ServiceAccess access;

        Guard(ServiceAccess access) {
            this.access = access;
        }

        @Override
        public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
                ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
            MethodDescriptor<ReqT, RespT> method = call.getMethodDescriptor();
            Rules current = rules;
            String refusal = access.open(method.getBareMethodName(), current.settings())
                    ? null
                    : refusal(current.token(), call, headers);
            if (refusal == null) {
                return next.startCall(call, headers);
            }
            Predicate<Object> openRequests = access.openRequests(method.getBareMethodName());
            if (openRequests != null) {
                return new FirstMessage<>(call, headers, next, openRequests, refusal);
            }
            return refuse(call, refusal);
        }
    }

    private static <ReqT, RespT> ServerCall.Listener<ReqT> refuse(ServerCall<ReqT, RespT> call, String refusal) {
        log.debug(
                "refused {} from {}: {}",
                call.getMethodDescriptor().getFullMethodName(),
                call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR),
                refusal);
        call.close(Status.UNAUTHENTICATED.withDescription(refusal), new Metadata());
        return new ServerCall.Listener<>() {};
    }

    /**
     * A call without the credential of a read that some requests open: it asks for the first message and decides on
     * it, starting the service's handler with it (and what arrived meanwhile) or refusing the call.
     */
    private static final class FirstMessage<ReqT, RespT> extends ServerCall.Listener<ReqT> {

        private final ServerCall<ReqT, RespT> call;
        private final Metadata headers;
        private final ServerCallHandler<ReqT, RespT> next;
        private final Predicate<Object> open;
        private final String refusal;
        // gRPC calls a listener from one thread at a time.
        private ServerCall.@Nullable Listener<ReqT> started;
        private boolean ready;
        private boolean refused;

        FirstMessage(
                ServerCall<ReqT, RespT> call,
                Metadata headers,
                ServerCallHandler<ReqT, RespT> next,
                Predicate<Object> open,
                String refusal) {
            this.call = call;
            this.headers = headers;
            this.next = next;
            this.open = open;
            this.refusal = refusal;
            call.request(1);
        }

        @Override
        public void onMessage(ReqT message) {
            ServerCall.Listener<ReqT> delegate = started;
            if (delegate != null) {
                delegate.onMessage(message);
                return;
            }
            if (refused) {
                return;
            }
            if (!open.test(message)) {
                refused = true;
                refuse(call, refusal);
                return;
            }
            delegate = next.startCall(call, headers);
            started = delegate;
            delegate.onMessage(message);
            if (ready) {
                delegate.onReady();
            }
        }

        @Override
        public void onHalfClose() {
            ServerCall.Listener<ReqT> delegate = started;
            if (delegate != null) {
                delegate.onHalfClose();
            } else if (!refused) {
                // No message came: nothing says the call is one of the open ones.
                refused = true;
                refuse(call, refusal);
            }
        }

        @Override
        public void onReady() {
            ServerCall.Listener<ReqT> delegate = started;
            if (delegate != null) {
                delegate.onReady();
            } else {
                ready = true;
            }
        }

        @Override
        public void onCancel() {
            ServerCall.Listener<ReqT> delegate = started;
            if (delegate != null) {
                delegate.onCancel();
            }
        }

        @Override
        public void onComplete() {
            ServerCall.Listener<ReqT> delegate = started;
            if (delegate != null) {
                delegate.onComplete();
            }
        }
    }

    /** The settings in force and the token they name. */
    private record Rules(ApiAuthSettings settings, ApiToken token) {

        Rules {
            Objects.requireNonNull(settings, "settings");
            Objects.requireNonNull(token, "token");
        }
    }

    @Override
    public String toString() {
        return "ApiGuard[" + describe() + "]";
    }
}
