package io.observatory.mesh.api;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.observatory.api.auth.ApiToken;
import io.observatory.api.auth.Authorization;
import io.observatory.api.auth.ClientCertificates;
import io.observatory.mesh.config.FleetWitnessSettings;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.config.MeshSettings;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which mesh witness calls {@code WitnessService} from its credential alone: the bearer token configured for
 * it ({@code observatory.mesh.hub.witnesses[i].token-file} / {@code token-env}) or the subject CN of a verified mTLS
 * client certificate ({@code certificate-subject}). Bound to that service alone, it refuses every call of it without a
 * witness credential ({@code UNAUTHENTICATED}; {@code FAILED_PRECONDITION} on an instance that is no hub); the
 * witness's name is put into the call's {@link Context} under {@link #WITNESS} for the service, which refuses a report
 * for another witness's name with {@code PERMISSION_DENIED}.
 *
 * <p>A refusal (either code) is logged at WARN once per episode: once per caller address and kind of refusal (a
 * fixed reason, or the witness and the code; never text from the request) until a call from that address succeeds.
 * At most {@value #MAX_EPISODES} open episodes are remembered: past that, one line says refusals go unlogged until
 * a caller succeeds. Costs per witness one token in memory.
 */
public final class WitnessAuthInterceptor implements ServerInterceptor {

    /** The calling witness's name, set for {@code GetFleet} and {@code Report} once its credential was recognised. */
    public static final Context.Key<String> WITNESS = Context.key("observatory-mesh-witness");

    /** The most refusal episodes remembered for logging once. */
    static final int MAX_EPISODES = 1_024;

    static final String MISSING = "missing witness bearer token or client certificate";
    static final String UNKNOWN =
            "the bearer token is no mesh witness's (observatory.mesh.hub.witnesses[].token-file or token-env)";
    /** Why a mesh call is refused on an instance that is not a hub. */
    public static final String NOT_HUB = "this instance is not a mesh hub (observatory.mesh.hub is not set)";

    private static final Logger log = LoggerFactory.getLogger(WitnessAuthInterceptor.class);

    private final Function<MeshSettings, Credentials> credentials;
    private final boolean trustClientCertificates;
    // Replaced whole on reload; every call reads it without locking.
    private volatile Credentials current;
    // The witness each known token digest was matched with: a token seen before is checked against its one witness's
    // instead of every witness's (10,000 constant-time comparisons a call at 10,000 witnesses). At most twice the
    // witnesses; keyed by an HMAC under a random key of this process, so it holds no token.
    private final Map<String, String> matched = new ConcurrentHashMap<>();
    private final SecretKeySpec digestKey = new SecretKeySpec(randomKey(), "HmacSHA256");
    private final RefusalEpisodes episodes = new RefusalEpisodes(log, MAX_EPISODES);

    /**
     * @param settings                the mesh settings at start-up
     * @param tokens                  reads the token a witness's settings name (see {@link ApiToken#of})
     * @param trustClientCertificates whether the gRPC server verifies client certificates (as for the v1 API)
     * @throws IllegalStateException if a witness's token cannot be read
     */
    public WitnessAuthInterceptor(
            MeshSettings settings, Function<MeshSettings, Credentials> tokens, boolean trustClientCertificates) {
        this.credentials = tokens;
        this.trustClientCertificates = trustClientCertificates;
        current = tokens.apply(settings);
    }

    /**
     * The witnesses' credentials from {@code settings}, tokens read with {@code tokens}.
     *
     * @throws IllegalStateException if a token cannot be read
     */
    public static Credentials credentials(MeshSettings settings, Function<FleetWitnessSettings, ApiToken> tokens) {
        HubSettings hub = settings.hub();
        List<Credentials.Token> byToken = new ArrayList<>();
        Map<String, String> bySubject = new HashMap<>();
        if (hub != null) {
            for (FleetWitnessSettings witness : hub.witnesses()) {
                if (witness.tokenFile() != null || witness.tokenEnv() != null) {
                    byToken.add(new Credentials.Token(witness.name(), tokens.apply(witness)));
                }
                if (witness.certificateSubject() != null) {
                    bySubject.put(witness.certificateSubject(), witness.name());
                }
            }
        }
        return new Credentials(hub != null, byToken, bySubject);
    }

    /** Whether {@code subject} is the certificate subject CN of a witness of the fleet in force. */
    public boolean witnessSubject(String subject) {
        return current.bySubject().containsKey(subject);
    }

    /** Applies reloaded settings; tokens that cannot be read keep the credentials in force. */
    public void reconfigure(MeshSettings next) {
        try {
            current = credentials.apply(next);
        } catch (IllegalStateException e) {
            log.warn("mesh witness credentials unchanged, a new token cannot be used: {}", e.getMessage());
        }
    }

    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
            ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
        String peer = host(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        Credentials known = current;
        if (!known.hub()) {
            call.close(Status.FAILED_PRECONDITION.withDescription(NOT_HUB), new Metadata());
            return new ServerCall.Listener<>() {};
        }
        Identified identified = identify(known, call, headers);
        if (identified.witness() == null) {
            episodes.refused(
                    peer, identified.refusal(), call.getMethodDescriptor().getFullMethodName(), identified.refusal());
            call.close(Status.UNAUTHENTICATED.withDescription(identified.refusal()), new Metadata());
            return new ServerCall.Listener<>() {};
        }
        String method = call.getMethodDescriptor().getFullMethodName();
        ServerCall<ReqT, RespT> episodic = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                if (status.getCode() == Status.Code.PERMISSION_DENIED) {
                    episodes.refused(
                            peer,
                            identified.witness() + " " + status.getCode(),
                            method,
                            identified.witness() + ": " + status.getDescription());
                } else if (status.isOk()) {
                    episodes.accepted(peer);
                }
                super.close(status, trailers);
            }
        };
        return Contexts.interceptCall(
                Context.current().withValue(WITNESS, identified.witness()), episodic, headers, next);
    }

    private Identified identify(Credentials known, ServerCall<?, ?> call, Metadata headers) {
        if (trustClientCertificates) {
            String subject =
                    ClientCertificates.subjectCommonName(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
            String witness = subject == null ? null : known.bySubject().get(subject);
            if (witness != null) {
                return new Identified(witness, "");
            }
        }
        Authorization authorization = Authorization.of(headers);
        if (authorization instanceof Authorization.Unusable unusable) {
            return new Identified(null, unusable.reason());
        }
        if (!(authorization instanceof Authorization.Bearer bearer)) {
            return new Identified(null, MISSING);
        }
        String presented = bearer.token();
        String digest = digest(presented);
        String remembered = matched.get(digest);
        ApiToken rememberedToken = remembered == null ? null : known.byWitness().get(remembered);
        if (rememberedToken != null && rememberedToken.matches(presented)) {
            return new Identified(remembered, "");
        }
        String match = null;
        // Every token is compared, so the time taken does not say which witness's token was close.
        for (Credentials.Token token : known.byToken()) {
            if (token.token().matches(presented) && match == null) {
                match = token.witness();
            }
        }
        if (match == null) {
            return new Identified(null, UNKNOWN);
        }
        if (matched.size() > 2 * known.byToken().size()) {
            matched.clear(); // tokens rotated away: what they matched is forgotten
        }
        matched.put(digest, match);
        return new Identified(match, "");
    }

    private static byte[] randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return key;
    }

    /** The presented token's HMAC-SHA256 under this process's random key, hex: a map key that holds no token. */
    private String digest(String presented) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(digestKey);
            return HexFormat.of().formatHex(mac.doFinal(presented.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256, which every Java runtime has", e);
        }
    }

    private static String host(@Nullable SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getHostString() : String.valueOf(address);
    }

    private record Identified(@Nullable String witness, String refusal) {}

    /**
     * The credentials the hub recognises.
     *
     * @param hub       whether this instance is a hub at all
     * @param byToken   each token-holding witness with its token
     * @param bySubject witness name by certificate subject CN
     * @param byWitness each token-holding witness's token, by witness name
     */
    public record Credentials(
            boolean hub, List<Token> byToken, Map<String, String> bySubject, Map<String, ApiToken> byWitness) {

        public Credentials {
            byToken = List.copyOf(byToken);
            bySubject = Map.copyOf(bySubject);
            byWitness = Map.copyOf(byWitness);
        }

        /** Credentials with {@code byWitness} derived from {@code byToken}. */
        public Credentials(boolean hub, List<Token> byToken, Map<String, String> bySubject) {
            this(hub, byToken, bySubject, byWitness(byToken));
        }

        private static Map<String, ApiToken> byWitness(List<Token> byToken) {
            Map<String, ApiToken> tokens = new HashMap<>();
            byToken.forEach(token -> tokens.put(token.witness(), token.token()));
            return tokens;
        }

        /** A witness and its token. */
        public record Token(String witness, ApiToken token) {}
    }

    /** Refusals logged once per (caller, kind) until the caller gets in, with a bounded memory of episodes. */
    static final class RefusalEpisodes {

        private final Logger log;
        private final int limit;
        private final Set<String> open = ConcurrentHashMap.newKeySet();
        private final AtomicBoolean full = new AtomicBoolean();

        RefusalEpisodes(Logger log, int limit) {
            this.log = log;
            this.limit = limit;
        }

        /**
         * @param kind    what makes it the same episode: a fixed reason, or a witness and a code
         * @param message what to log, already bounded in length
         */
        void refused(String peer, String kind, String method, String message) {
            if (open.size() >= limit) {
                if (full.compareAndSet(false, true)) {
                    log.warn(
                            "more than {} callers are being refused; further refusals are not logged until a"
                                    + " refused caller succeeds",
                            limit);
                }
                return;
            }
            if (open.add(peer + "\n" + kind)) {
                log.warn(
                        "refused {} from {}: {} (logged once until a call from {} is accepted)",
                        method,
                        peer,
                        message,
                        peer);
            }
        }

        void accepted(String peer) {
            if (!open.isEmpty() && open.removeIf(key -> key.startsWith(peer + "\n"))) {
                full.set(false);
            }
        }
    }
}
