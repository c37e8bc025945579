package io.observatory.mesh.api;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.observatory.config.HostPort;
import io.observatory.mesh.api.v1.GetFleetRequest;
import io.observatory.mesh.api.v1.GetFleetResponse;
import io.observatory.mesh.api.v1.ReportRequest;
import io.observatory.mesh.api.v1.ReportResponse;
import io.observatory.mesh.api.v1.WitnessServiceGrpc;
import io.observatory.mesh.config.HubTlsSettings;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.config.WitnessSettings;
import io.observatory.mesh.protocol.HubLink;
import io.observatory.mesh.protocol.WitnessFleet;
import io.observatory.mesh.protocol.WitnessReport;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hubs over gRPC ({@code observatory.mesh.witness.hubs}): each {@code host:port} is resolved again for every call,
 * and a name with several addresses (a Kubernetes headless Service of hub replicas) means every address, so each
 * replica gets every report. One channel per address (TLS or plaintext, as {@code hub-tls} says) is kept while the
 * address resolves; calls carry {@code authorization: Bearer <token>} with the token read fresh each time, and a
 * deadline. A hub that cannot be reached is logged at WARN once until it answers again. Used from the witness's thread
 * only.
 */
final class RemoteHubs implements HubLink {

    /** The longest a call to a hub may take. */
    public static final Duration MAX_DEADLINE = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(RemoteHubs.class);

    private final List<HostPort> hubs;
    private final @Nullable Supplier<String> token;
    private final boolean tokenOverPlaintext;
    private final ChannelCredentials credentials;
    private final Duration deadline;
    private final Map<InetSocketAddress, ManagedChannel> channels = new HashMap<>();
    private final Set<InetSocketAddress> unreachable = new LinkedHashSet<>();

    /**
     * @param hubs        the hubs as configured
     * @param token              this witness's bearer token, asked for each call; {@code null} when it authenticates
     *                           with its client certificate alone
     * @param tokenOverPlaintext whether the token may go to a hub that is not on a loopback address without TLS
     * @param credentials        plaintext, or TLS with the trusted CAs and the client certificate
     * @param deadline    the deadline of one call
     */
    RemoteHubs(
            List<HostPort> hubs,
            @Nullable Supplier<String> token,
            boolean tokenOverPlaintext,
            ChannelCredentials credentials,
            Duration deadline) {
        this.hubs = List.copyOf(hubs);
        this.token = token;
        this.tokenOverPlaintext = tokenOverPlaintext;
        this.credentials = credentials;
        this.deadline = deadline;
    }

    /**
     * The hubs {@code settings} name, with the witness's token; a call's deadline is the report interval, at most
     * {@link #MAX_DEADLINE}.
     *
     * @throws IllegalStateException naming the setting when the token cannot be read
     */
    static RemoteHubs of(MeshSettings mesh, Function<String, @Nullable String> environment) {
        WitnessSettings settings = java.util.Objects.requireNonNull(mesh.witness(), "a witness");
        Duration reportInterval = mesh.initialReportInterval();
        Duration deadline = reportInterval.compareTo(MAX_DEADLINE) < 0 ? reportInterval : MAX_DEADLINE;
        return new RemoteHubs(
                settings.hubAddresses(),
                settings.token().configured() ? BearerToken.of(settings.token(), environment) : null,
                settings.tokenOverPlaintext(),
                credentials(settings.hubTls()),
                deadline);
    }

    /**
     * Plaintext, or TLS trusting the configured CAs (the JDK's otherwise) and presenting the client certificate.
     *
     * @throws IllegalStateException naming the setting when a PEM file cannot be used
     */
    static ChannelCredentials credentials(HubTlsSettings tls) {
        if (!tls.enabled()) {
            return InsecureChannelCredentials.create();
        }
        TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder();
        try {
            if (tls.trustedCertificates() != null) {
                builder.trustManager(new File(tls.trustedCertificates()));
            }
            if (tls.certificateChain() != null && tls.privateKey() != null) {
                builder.keyManager(new File(tls.certificateChain()), new File(tls.privateKey()));
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException(
                    "observatory.mesh.witness.hub-tls: the PEM files cannot be used (" + e.getMessage() + ")", e);
        }
        return builder.build();
    }

    /** Asks every hub at once and takes the first answer in configuration order, all within one deadline. */
    @Override
    public Optional<WitnessFleet> fetchFleet() {
        Map<InetSocketAddress, ListenableFuture<GetFleetResponse>> calls = new LinkedHashMap<>();
        resolve()
                .forEach((address, channel) ->
                        calls.put(address, stub(address, channel).getFleet(GetFleetRequest.getDefaultInstance())));
        long deadlineNanos = System.nanoTime() + deadline.toNanos();
        Optional<WitnessFleet> fleet = Optional.empty();
        for (Map.Entry<InetSocketAddress, ListenableFuture<GetFleetResponse>> call : calls.entrySet()) {
            if (fleet.isPresent()) {
                call.getValue().cancel(true);
                continue;
            }
            try {
                GetFleetResponse response =
                        call.getValue().get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                reached(call.getKey());
                fleet = Optional.of(MeshProtos.witnessFleet(response));
            } catch (ExecutionException | TimeoutException e) {
                call.getValue().cancel(true);
                missed(call.getKey(), "GetFleet", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return fleet;
    }

    @Override
    public int send(WitnessReport report) {
        ReportRequest request = MeshProtos.request(report);
        Map<InetSocketAddress, ListenableFuture<ReportResponse>> calls = new LinkedHashMap<>();
        resolve()
                .forEach((address, channel) ->
                        calls.put(address, stub(address, channel).report(request)));
        int took = 0;
        long deadlineNanos = System.nanoTime() + deadline.toNanos();
        for (Map.Entry<InetSocketAddress, ListenableFuture<ReportResponse>> call : calls.entrySet()) {
            try {
                call.getValue().get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                reached(call.getKey());
                took++;
            } catch (ExecutionException | TimeoutException e) {
                call.getValue().cancel(true);
                missed(call.getKey(), "Report", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return took;
            }
        }
        return took;
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
    }

    /** A stub of the hub at {@code address}, with the witness's token as call credentials when it has one. */
    private WitnessServiceGrpc.WitnessServiceFutureStub stub(InetSocketAddress address, ManagedChannel channel) {
        WitnessServiceGrpc.WitnessServiceFutureStub stub =
                WitnessServiceGrpc.newFutureStub(channel).withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
        if (token == null) {
            return stub;
        }
        boolean loopback = address.getAddress() != null && address.getAddress().isLoopbackAddress();
        return stub.withCallCredentials(new WitnessCredentials(token, loopback || tokenOverPlaintext));
    }

    /** Every address of every hub now, each with its channel; channels of addresses gone are shut down. */
    private Map<InetSocketAddress, ManagedChannel> resolve() {
        Map<InetSocketAddress, ManagedChannel> now = new LinkedHashMap<>();
        for (HostPort hub : hubs) {
            try {
                for (InetAddress address : InetAddress.getAllByName(hub.host())) {
                    InetSocketAddress target = new InetSocketAddress(address, hub.port());
                    // The configured name is the authority, so TLS verifies the hub's certificate for it, not for
                    // the replica's address.
                    now.put(
                            target,
                            channels.computeIfAbsent(
                                    target,
                                    key -> NettyChannelBuilder.forAddress(key, credentials)
                                            .overrideAuthority(hub.toString())
                                            .build()));
                }
            } catch (UnknownHostException e) {
                log.warn("mesh hub {} does not resolve ({}); trying again at the next report", hub, e.getMessage());
            }
        }
        List<InetSocketAddress> gone = new ArrayList<>(channels.keySet());
        gone.removeAll(now.keySet());
        for (InetSocketAddress address : gone) {
            ManagedChannel channel = channels.remove(address);
            if (channel != null) {
                channel.shutdownNow();
            }
        }
        return now;
    }

    private static String describe(InetSocketAddress hub) {
        String host = hub.getAddress() == null
                ? hub.getHostString()
                : hub.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + hub.getPort();
    }

    private void reached(InetSocketAddress hub) {
        if (unreachable.remove(hub)) {
            log.info("mesh hub {} reached again", describe(hub));
        }
    }

    /**
     * Notes a hub that did not answer; its channel's reconnect backoff is reset, so the next report (one report
     * interval later) connects at once instead of after gRPC's backoff: a restarted hub gets every witness's report
     * within one report interval of its port opening.
     */
    private void missed(InetSocketAddress hub, String call, Exception e) {
        ManagedChannel channel = channels.get(hub);
        if (channel != null) {
            channel.resetConnectBackoff();
        }
        if (unreachable.add(hub)) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            String why = cause instanceof StatusRuntimeException status
                    ? status.getStatus().getCode()
                            + (status.getStatus().getDescription() == null
                                    ? ""
                                    : " " + status.getStatus().getDescription())
                            + (status.getCause() == null
                                    ? ""
                                    : " (" + status.getCause().getMessage() + ")")
                    : "no answer within " + deadline.toMillis() + " ms";
            log.warn(
                    "mesh hub {} missed {}: {}; probing goes on and the next report carries the whole state"
                            + " (logged once until it answers)",
                    describe(hub),
                    call,
                    why);
        }
    }
}
