package io.observatory.api.auth;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.observatory.api.mesh.v1.MeshServiceGrpc;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.config.ApiAuthSettings;
import java.security.cert.Certificate;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards the v1 API ({@code observatory.v1.ObservatoryService}): writes ({@code ReportOutcomes}, and any method added
 * later that is not listed as a read) need credentials, reads need them only with {@code require-for-reads}; the
 * mesh service's reads ({@code GetMesh}, {@code WatchMesh}, {@code ListRoute}) are guarded as the v1 reads. Calls to
 * every other service or method (Xray's, grpc.health.v1, reflection, the mesh witnesses' own) pass untouched.
 *
 * <p>Credentials are either a verified TLS client certificate (the gRPC server runs with mTLS and the call's
 * {@link Grpc#TRANSPORT_ATTR_SSL_SESSION} has peer certificates) or {@code authorization: Bearer <token>} metadata
 * matching the configured {@link ApiToken}. Any refusal is {@code UNAUTHENTICATED} (gRPC's code for "the request does
 * not have valid authentication credentials"; {@code PERMISSION_DENIED} is for an identified caller who lacks a
 * permission, and a valid credential here grants the whole API). The description says what was missing or wrong,
 * never the token. Refusals are logged at DEBUG.
 *
 * <p>The same rules guard the status page's data on the management HTTP port ({@link #httpReadRefusal}), so one
 * {@code require-for-reads} and one token cover both.
 */
public final class ApiAuthInterceptor implements ServerInterceptor {

    /** The metadata key of the bearer token. */
    static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    /** The read methods of the v1 service; every other method of it is a write. */
    static final Set<String> READS = Set.of(
            ObservatoryServiceGrpc.getGetObservationMethod().getBareMethodName(),
            ObservatoryServiceGrpc.getWatchObservationMethod().getBareMethodName(),
            ObservatoryServiceGrpc.getListAvailableMethod().getBareMethodName(),
            ObservatoryServiceGrpc.getPickMethod().getBareMethodName());

    /**
     * The read methods of the mesh service, guarded as the v1 reads are; its other methods are the witnesses' (see
     * {@link WitnessAuthInterceptor}).
     */
    static final Set<String> MESH_READS = Set.of(
            MeshServiceGrpc.getGetMeshMethod().getBareMethodName(),
            MeshServiceGrpc.getWatchMeshMethod().getBareMethodName(),
            MeshServiceGrpc.getListRouteMethod().getBareMethodName());

    static final String MISSING = "missing bearer token or client certificate";
    static final String INVALID = "invalid bearer token";
    static final String SEVERAL = "more than one authorization metadata entry (expected: exactly one)";
    static final String NOT_BEARER = "authorization metadata is not a bearer token (expected: Bearer <token>)";
    static final String NOTHING_CONFIGURED = "no API token is configured and the call has no client certificate:"
            + " the operator configures observatory.api.auth.token-file or observatory.api.auth.token-env, or mTLS"
            + " (spring.grpc.server.ssl.client-auth)";
    static final String HTTP_MISSING = "missing bearer token (expected: the header Authorization: Bearer <token>)";
    static final String HTTP_NOT_BEARER = "the Authorization header is not a bearer token (expected: Bearer <token>)";
    static final String HTTP_NOTHING_CONFIGURED = "reads need the API token and none is configured: the operator"
            + " configures observatory.api.auth.token-file or observatory.api.auth.token-env (a client certificate"
            + " authorizes gRPC calls only)";

    private static final Logger log = LoggerFactory.getLogger(ApiAuthInterceptor.class);
    private static final String BEARER = "bearer ";

    private final Function<ApiAuthSettings, ApiToken> tokens;
    private final boolean trustClientCertificates;
    private final Predicate<String> witnessSubject;
    // Replaced whole on reload; every call reads it without locking.
    private final AtomicReference<Rules> rules = new AtomicReference<>();

    /**
     * @param settings                the settings at startup
     * @param tokens                  makes the token {@code settings} name (see {@link ApiToken#of})
     * @param trustClientCertificates whether the server's TLS asks for client certificates and verifies them
     *                                ({@code spring.grpc.server.ssl.client-auth} not {@code none} and
     *                                {@code spring.grpc.server.ssl.secure}, default true); when false a client
     *                                certificate is not a credential, only a bearer token is
     * @param witnessSubject        whether a certificate subject CN is a mesh witness's: a witness's certificate
     *                                lets it report to the hub, never write to the v1 API (its passive reports
     *                                would remove servers without the mesh's quorum)
     * @throws IllegalStateException if the configured token cannot be read
     */
    public ApiAuthInterceptor(
            ApiAuthSettings settings,
            Function<ApiAuthSettings, ApiToken> tokens,
            boolean trustClientCertificates,
            Predicate<String> witnessSubject) {
        this.tokens = tokens;
        this.trustClientCertificates = trustClientCertificates;
        this.witnessSubject = witnessSubject;
        rules.set(new Rules(settings, tokens.apply(settings)));
    }

    /** One line on what callers need, for the startup log, e.g. {@code writes need ... ; reads are open}. */
    public String describe() {
        Rules current = rules.get();
        String credentials = current.token().configured()
                ? "the bearer token from the " + current.token().source()
                        + (trustClientCertificates ? " or a verified client certificate" : "")
                : trustClientCertificates ? "a verified client certificate (no API token is configured)" : null;
        String reads = "; reads " + (current.settings().requireForReads() ? "need the same" : "are open");
        if (credentials == null) {
            return "v1 API writes are refused: neither an API token (observatory.api.auth.token-file or token-env) nor"
                    + " mTLS client authentication (spring.grpc.server.ssl.client-auth) is configured" + reads;
        }
        return "v1 API writes need " + credentials + reads;
    }

    /**
     * Applies reloaded settings: a different token source or {@code require-for-reads} takes effect for the next
     * call; unchanged settings keep the token in hand. A token that cannot be read keeps the settings in force.
     */
    public void reconfigure(ApiAuthSettings next) {
        Rules current = rules.get();
        if (current.settings().equals(next)) {
            return;
        }
        try {
            rules.set(new Rules(next, tokens.apply(next)));
            log.info("API authentication changed: {}", describe());
        } catch (IllegalStateException e) {
            log.warn("API authentication unchanged, the new token cannot be used: {}", e.getMessage());
        }
    }

    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
            ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
        MethodDescriptor<ReqT, RespT> method = call.getMethodDescriptor();
        Rules current = rules.get();
        boolean mesh = MeshServiceGrpc.SERVICE_NAME.equals(method.getServiceName());
        if (mesh && !MESH_READS.contains(method.getBareMethodName())) {
            return next.startCall(call, headers);
        }
        boolean open = (!mesh && !ObservatoryServiceGrpc.SERVICE_NAME.equals(method.getServiceName()))
                || ((READS.contains(method.getBareMethodName()) || mesh)
                        && !current.settings().requireForReads());
        String refusal = open ? null : refusal(current.token(), call, headers);
        if (refusal == null) {
            return next.startCall(call, headers);
        }
        log.debug(
                "refused {} from {}: {}",
                method.getFullMethodName(),
                call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR),
                refusal);
        call.close(Status.UNAUTHENTICATED.withDescription(refusal), new Metadata());
        return new ServerCall.Listener<>() {};
    }

    /**
     * Why a read over HTTP — the status page's data on the management port — is refused, or {@code null} when it
     * may go ahead: open unless {@code require-for-reads}, as a v1 read over gRPC; then it needs exactly one
     * {@code Authorization: Bearer <token>} header with the API token, refused with the same descriptions (a missing
     * token and a server without one say so in HTTP's terms). A client certificate is no credential here. Any
     * thread; follows reloads like the gRPC calls.
     *
     * @param authorizations the request's {@code Authorization} header values, in order; empty when it has none
     */
    public @Nullable String httpReadRefusal(List<String> authorizations) {
        Rules current = rules.get();
        if (!current.settings().requireForReads()) {
            return null;
        }
        return bearerRefusal(current.token(), authorizations.isEmpty() ? null : authorizations, Wording.HTTP);
    }

    /** Why the call is refused, or {@code null} when its credentials are good. */
    private @Nullable String refusal(ApiToken token, ServerCall<?, ?> call, Metadata headers) {
        SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        if (trustClientCertificates && hasPeerCertificate(session)) {
            String subject = WitnessAuthInterceptor.subjectCommonName(session);
            if (subject == null || !witnessSubject.test(subject)) {
                return null;
            }
        }
        return bearerRefusal(token, headers.getAll(AUTHORIZATION), Wording.GRPC);
    }

    /**
     * Why {@code all}, the presented authorization values ({@code null} for none), do not carry the token, or
     * {@code null} when they do, in the words of the protocol they came by.
     */
    private static @Nullable String bearerRefusal(ApiToken token, @Nullable Iterable<String> all, Wording wording) {
        if (all == null) {
            return token.configured() ? wording.missing() : wording.nothingConfigured();
        }
        Iterator<String> values = all.iterator();
        String authorization = values.next();
        if (values.hasNext()) {
            return SEVERAL;
        }
        if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return wording.notBearer();
        }
        if (!token.configured()) {
            return wording.nothingConfigured();
        }
        return token.matches(authorization.substring(BEARER.length()).strip()) ? null : INVALID;
    }

    /** The refusals that name what the protocol calls the credential: gRPC metadata or an HTTP header. */
    private record Wording(String missing, String notBearer, String nothingConfigured) {

        static final Wording GRPC = new Wording(MISSING, NOT_BEARER, NOTHING_CONFIGURED);
        static final Wording HTTP = new Wording(HTTP_MISSING, HTTP_NOT_BEARER, HTTP_NOTHING_CONFIGURED);
    }

    /** Whether the TLS session has a client certificate; the handshake verified it against the trust store. */
    private static boolean hasPeerCertificate(@Nullable SSLSession session) {
        if (session == null) {
            return false;
        }
        try {
            Certificate[] certificates = session.getPeerCertificates();
            return certificates != null && certificates.length > 0;
        } catch (SSLPeerUnverifiedException e) {
            return false;
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
        return "ApiAuthInterceptor[" + describe() + "]";
    }
}
