package io.observatory.xds;

import static io.observatory.testing.Percentiles.millis;
import static io.observatory.testing.Percentiles.percentile;
import static io.observatory.testing.SyntheticStatuses.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.observatory.api.RunningServiceTest;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.AdsClient;
import io.observatory.testing.ObserverOutput;
import io.observatory.time.ExecutorScheduler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A measurement, not a timed test: one verdict's change pushed over xDS to {@value #CLIENTS} clients, each on its own
 * connection and each watching (state of the world, over ADS, acknowledging every answer as Envoy does) the one
 * cluster that holds all {@code benchmark.xds.outbounds} endpoints (default 10,000) — the whole service, its real
 * gRPC server. Prints, over {@value #CHANGES} changes after {@value #WARM_UP} warm-up ones, the latency from the
 * writer's publication to each client's answer (p50, p99, max) and to the last client of each change; beside it, in
 * the same run, the same change to {@value #CLIENTS} {@code WatchObservation} subscribers; and the heap each connected
 * xDS client costs (both ends, which share this JVM). Asserts only what the clients see: every change reaches every
 * client, and the changed endpoint carries the new health.
 */
class XdsPushBenchmarkIT extends RunningServiceTest {

    private static final int OUTBOUNDS = Integer.getInteger("benchmark.xds.outbounds", 10_000);
    private static final int CLIENTS = 100;
    private static final int CHANGES = 30;
    private static final int WARM_UP = 10;

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        for (int i = 0; i < OUTBOUNDS; i++) {
            registerDirectOutbound(registry, i, tag(i), null);
            int address = i + 1;
            registry.add(
                    "observatory.outbounds[" + i + "].endpoint",
                    () -> "127.1." + (address / 250) + "." + (address % 250 + 1) + ":443");
        }
        registry.add("observatory.xds.enabled", () -> "true");
        registry.add("observatory.xds.clusters[0].name", () -> "all");
        registry.add("observatory.xds.clusters[0].selector[0]", () -> "proxy_");
    }

    /**
     * ADS as the clients call it: each answer is read whole off the wire, and parsed with its resources' bytes aliased
     * rather than copied, so that 100 clients in the service's own JVM take less of its two cores.
     */
    private static final MethodDescriptor<DiscoveryRequest, DiscoveryResponse> ADS =
            AggregatedDiscoveryServiceGrpc.getStreamAggregatedResourcesMethod().toBuilder(
                            ProtoUtils.marshaller(DiscoveryRequest.getDefaultInstance()),
                            new MethodDescriptor.Marshaller<DiscoveryResponse>() {
                                @Override
                                public InputStream stream(DiscoveryResponse value) {
                                    return value.toByteString().newInput();
                                }

                                @Override
                                public DiscoveryResponse parse(InputStream stream) {
                                    try {
                                        CodedInputStream in = CodedInputStream.newInstance(stream.readAllBytes());
                                        in.enableAliasing(true);
                                        return DiscoveryResponse.parseFrom(in);
                                    } catch (IOException e) {
                                        throw new UncheckedIOException(e);
                                    }
                                }
                            })
                    .build();

    private static String tag(int i) {
        return String.format("proxy_%05d", i);
    }

    @Autowired
    private ExecutorScheduler writer;

    @Autowired
    private ObservationUpdater updater;

    private final List<ManagedChannel> channels = new ArrayList<>();

    @AfterEach
    void closeChannels() throws InterruptedException {
        closeAll();
    }

    @Test
    void oneChangeToOneHundredXdsClientsBesideWatchObservation() throws Exception {
        List<OutboundStatus> all = IntStream.range(0, OUTBOUNDS)
                .mapToObj(i -> status(tag(i), true))
                .toList();
        writer.execute(() -> ObserverOutput.publish(updater, all));
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long heapBefore = usedHeapAfterGc(memory);

        AtomicReference<Round> round = new AtomicReference<>();
        CountDownLatch connected = new CountDownLatch(CLIENTS);
        AtomicInteger failures = new AtomicInteger();
        for (int i = 0; i < CLIENTS; i++) {
            ManagedChannel client = channel();
            Node node = Node.newBuilder().setId("bench-" + i).build();
            boolean checks = i == 0;
            AtomicReference<StreamObserver<DiscoveryRequest>> requests = new AtomicReference<>();
            requests.set(ClientCalls.asyncBidiStreamingCall(
                    client.newCall(ADS, CallOptions.DEFAULT), new StreamObserver<DiscoveryResponse>() {
                        private boolean first = true;

                        @Override
                        public void onNext(DiscoveryResponse answer) {
                            long now = System.nanoTime();
                            requests.get()
                                    .onNext(request(node)
                                            .setVersionInfo(answer.getVersionInfo())
                                            .setResponseNonce(answer.getNonce())
                                            .build());
                            if (first) {
                                first = false;
                                connected.countDown();
                                return;
                            }
                            Round current = round.get();
                            if (current != null) {
                                current.arrived(now, checks ? health(answer) : null);
                            }
                        }

                        @Override
                        public void onError(Throwable t) {
                            failures.incrementAndGet();
                        }

                        @Override
                        public void onCompleted() {}
                    }));
            requests.get().onNext(request(node).build());
        }
        assertThat(connected.await(120, TimeUnit.SECONDS))
                .as("every client has the cluster's endpoints")
                .isTrue();
        long heapConnected = usedHeapAfterGc(memory);
        Results xds = rounds(round);
        assertThat(failures.get()).as("xDS streams that failed").isZero();
        closeAll();

        AtomicReference<Round> watchRound = new AtomicReference<>();
        CountDownLatch subscribed = new CountDownLatch(CLIENTS);
        WatchObservationRequest watch =
                WatchObservationRequest.newBuilder().addTagPrefixes(tag(0)).build();
        for (int i = 0; i < CLIENTS; i++) {
            ObservatoryServiceGrpc.newStub(channel()).watchObservation(watch, new StreamObserver<>() {
                private boolean started;

                @Override
                public void onNext(WatchObservationResponse value) {
                    long now = System.nanoTime();
                    if (!started) {
                        started = true;
                        subscribed.countDown();
                        return;
                    }
                    Round current = watchRound.get();
                    if (current != null && value.hasChanged()) {
                        current.arrived(now, null);
                    }
                }

                @Override
                public void onError(Throwable t) {
                    failures.incrementAndGet();
                }

                @Override
                public void onCompleted() {}
            });
        }
        assertThat(subscribed.await(60, TimeUnit.SECONDS)).isTrue();
        Results reference = rounds(watchRound);

        System.out.printf(
                "xDS push, one verdict change to %d clients (own connection each, state of the world over ADS, one"
                        + " cluster of %d endpoints), %d changes after %d warm-up: delivery p50 %.1f ms, p99 %.1f ms,"
                        + " max %.1f ms; last client of a change p50 %.1f ms, p99 %.1f ms; reference, the same change"
                        + " to %d WatchObservation subscribers: p50 %.1f ms, p99 %.1f ms, last p99 %.1f ms; heap per"
                        + " connected xDS client (both ends in one JVM) %.0f KB%n",
                CLIENTS,
                OUTBOUNDS,
                CHANGES,
                WARM_UP,
                millis(percentile(xds.deliveries, 50)),
                millis(percentile(xds.deliveries, 99)),
                millis(percentile(xds.deliveries, 100)),
                millis(percentile(xds.last, 50)),
                millis(percentile(xds.last, 99)),
                CLIENTS,
                millis(percentile(reference.deliveries, 50)),
                millis(percentile(reference.deliveries, 99)),
                millis(percentile(reference.last, 99)),
                (heapConnected - heapBefore) / 1024.0 / CLIENTS);
    }

    /** {@value #WARM_UP} + {@value #CHANGES} changes of {@code proxy_00000}, each awaited at every client. */
    private Results rounds(AtomicReference<Round> round) throws InterruptedException {
        Results results = new Results();
        for (int i = 0; i < WARM_UP + CHANGES; i++) {
            boolean alive = i % 2 == 1;
            Round current = new Round(alive ? HealthStatus.HEALTHY : HealthStatus.UNHEALTHY);
            round.set(current);
            current.startNanos = System.nanoTime();
            writer.execute(() -> updater.changed(List.of(status(tag(0), alive)), List.of()));
            assertThat(current.done.await(60, TimeUnit.SECONDS))
                    .as("change %d reached every client", i)
                    .isTrue();
            assertThat(current.wrong.get()).as("wrong health in change %d", i).isZero();
            if (i >= WARM_UP) {
                int measured = i - WARM_UP;
                long last = 0;
                for (int c = 0; c < CLIENTS; c++) {
                    long latency = current.arrivals[c] - current.startNanos;
                    results.deliveries[measured * CLIENTS + c] = latency;
                    last = Math.max(last, latency);
                }
                results.last[measured] = last;
            }
        }
        return results;
    }

    private ManagedChannel channel() {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort())
                .usePlaintext()
                .maxInboundMessageSize(16 * 1024 * 1024)
                .build();
        channels.add(channel);
        return channel;
    }

    private void closeAll() throws InterruptedException {
        channels.forEach(ManagedChannel::shutdownNow);
        for (ManagedChannel open : channels) {
            open.awaitTermination(5, TimeUnit.SECONDS);
        }
        channels.clear();
    }

    private static DiscoveryRequest.Builder request(Node node) {
        return DiscoveryRequest.newBuilder()
                .setNode(node)
                .setTypeUrl(AdsClient.ENDPOINTS)
                .addResourceNames("all");
    }

    /** The health of {@code proxy_00000}'s endpoint, the first of the cluster's. */
    private static HealthStatus health(DiscoveryResponse answer) {
        try {
            return answer.getResources(0)
                    .unpack(ClusterLoadAssignment.class)
                    .getEndpoints(0)
                    .getLbEndpoints(0)
                    .getHealthStatus();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static long usedHeapAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            memory.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Latencies of the measured changes, nanoseconds. */
    private static final class Results {
        final long[] deliveries = new long[CHANGES * CLIENTS];
        final long[] last = new long[CHANGES];
    }

    /** One change's arrivals at the clients. */
    private static final class Round {
        final long[] arrivals = new long[CLIENTS];
        final AtomicInteger arrived = new AtomicInteger();
        final AtomicInteger wrong = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(CLIENTS);
        final HealthStatus expected;
        volatile long startNanos;

        Round(HealthStatus expected) {
            this.expected = expected;
        }

        /** @param health what the checking client saw of the changed endpoint, {@code null} from the others */
        void arrived(long now, @Nullable HealthStatus health) {
            int index = arrived.getAndIncrement();
            if (index < CLIENTS) {
                arrivals[index] = now;
                if (health != null && health != expected) {
                    wrong.incrementAndGet();
                }
                done.countDown();
            }
        }
    }
}
