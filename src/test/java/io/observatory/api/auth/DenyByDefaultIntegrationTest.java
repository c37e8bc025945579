package io.observatory.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.observatory.ObservatoryApplication;
import io.observatory.testing.TestTarget;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * Every method of every service the running service registers — listed by the server's own reflection service, so a
 * service or method added later is covered without touching this test — called without a credential: the declared
 * reads answer while reads are open (Xray's also while {@code xray-reads-open}), and every other method is refused
 * {@code UNAUTHENTICATED}, the witnesses' calls included. The instance is a mesh hub, so the witness service judges
 * credentials rather than saying it is no hub.
 */
class DenyByDefaultIntegrationTest {

    private static final String TOKEN = "ZGVueS1ieS1kZWZhdWx0LXRva2VuLTMyLWJ5dGVz";

    /** The reads the API declares, by service: the contract this test holds the running service to. */
    private static final Map<String, Set<String>> READS = Map.of(
            "observatory.v1.ObservatoryService", Set.of("GetObservation", "WatchObservation", "ListAvailable", "Pick"),
            "xray.core.app.observatory.command.ObservatoryService", Set.of("GetOutboundStatus"),
            "observatory.mesh.v1.MeshService", Set.of("GetMesh", "WatchMesh", "ListRoute"),
            "observatory.v1.IncidentService", Set.of("ListIncidents", "WatchIncidents"),
            "grpc.health.v1.Health", Set.of("Check", "Watch"),
            "grpc.reflection.v1.ServerReflection", Set.of("ServerReflectionInfo"));

    private static final String XRAY = "xray.core.app.observatory.command.ObservatoryService";

    /**
     * Reads open to anyone for the empty request this test sends: grpc.health's check of the server as a whole, which
     * Kubernetes' probes make without a credential.
     */
    private static final Set<String> SERVER_HEALTH =
            Set.of("grpc.health.v1.Health/Check", "grpc.health.v1.Health/Watch");

    @TempDir
    Path directory;

    private final TestTarget target = TestTarget.http();
    private ConfigurableApplicationContext service;
    private ManagedChannel channel;

    @AfterEach
    void stop() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (service != null) {
            service.close();
        }
        target.close();
    }

    @ParameterizedTest(name = "require-for-reads={0} xray-reads-open={1}")
    @CsvSource({"false, false", "true, false", "true, true"})
    void callWhenNoCredentialThenOnlyTheOpenReadsAnswerAndEveryOtherMethodIsRefused(
            boolean requireForReads, boolean xrayReadsOpen) throws Exception {
        start(requireForReads, xrayReadsOpen);

        Map<String, List<MethodDescriptorProto>> methods = methods();
        Map<String, Status.Code> refused = new LinkedHashMap<>();
        Map<String, Status.Code> answered = new LinkedHashMap<>();
        methods.forEach((service, list) -> list.forEach(method -> {
            String name = service + "/" + method.getName();
            Status.Code code = callWithoutCredential(name, method);
            (code == Status.Code.UNAUTHENTICATED ? refused : answered).put(name, code);
        }));

        List<String> open = new ArrayList<>();
        READS.forEach((service, reads) -> reads.forEach(read -> {
            String name = service + "/" + read;
            if (!requireForReads || (xrayReadsOpen && service.equals(XRAY)) || SERVER_HEALTH.contains(name)) {
                open.add(name);
            }
        }));
        assertThat(methods.keySet())
                .as("every service the API declares is served, and nothing else but the witnesses' service")
                .containsExactlyInAnyOrderElementsOf(
                        concat(READS.keySet(), List.of("observatory.mesh.v1.WitnessService")));
        assertThat(answered.keySet()).as("answered without a credential").containsExactlyInAnyOrderElementsOf(open);
        assertThat(refused.keySet())
                .as("refused without a credential")
                .contains("observatory.v1.ObservatoryService/ReportOutcomes")
                .contains("observatory.mesh.v1.WitnessService/GetFleet", "observatory.mesh.v1.WitnessService/Report")
                .noneMatch(open::contains);
        assertThat(outboundHealthWithoutCredential())
                .as("an outbound's health is a read like the others")
                .isEqualTo(requireForReads ? Status.Code.UNAUTHENTICATED : Status.Code.OK);
    }

    /**
     * grpc.health's check of the hub's entry point {@code s1/main}, an outbound of the observation, without a
     * credential: {@code OK} when it answered (it is known, so never {@code NOT_FOUND}), else the refusal's code.
     */
    private Status.Code outboundHealthWithoutCredential() {
        try {
            HealthGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(5, TimeUnit.SECONDS)
                    .check(HealthCheckRequest.newBuilder()
                            .setService("outbound/s1/main")
                            .build());
            return Status.Code.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode();
        }
    }

    @Test
    void startWhenAServiceIsRegisteredWithoutTheGuardThenTheStartUpStopsNamingIt() {
        SpringApplicationBuilder withUnguardedService = new SpringApplicationBuilder(
                        ObservatoryApplication.class, UnguardedService.class)
                .properties("spring.grpc.server.port=0", "server.port=0");

        assertThatThrownBy(() -> service = withUnguardedService.run())
                .rootCause()
                .hasMessage("gRPC service grpc.reflection.v1alpha.ServerReflection is not guarded (expected: every"
                        + " service registered through ApiGuard, which denies by default)");
    }

    /** A service registered as Spring gRPC discovers services, not through the guard. */
    @Configuration(proxyBeanMethods = false)
    static class UnguardedService {

        @Bean
        @SuppressWarnings("deprecation") // the old reflection service: any service the guard did not bind will do
        BindableService unguardedReflection() {
            return ProtoReflectionService.newInstance();
        }
    }

    private static List<String> concat(Set<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private void start(boolean requireForReads, boolean xrayReadsOpen) throws IOException {
        Path token = Files.writeString(directory.resolve("api-token"), TOKEN + "\n");
        Path witnessToken = Files.writeString(directory.resolve("w1-token"), "token-of-witness-w1\n");
        CompletableFuture<Integer> port = new CompletableFuture<>();
        service = new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        port.complete(started.getPort());
                    }
                })
                .run(
                        "--spring.grpc.server.port=0",
                        "--server.port=0",
                        "--observatory.api.auth.token-file=" + token,
                        "--observatory.api.auth.require-for-reads=" + requireForReads,
                        "--observatory.api.auth.xray-reads-open=" + xrayReadsOpen,
                        "--observatory.mesh.hub.servers[0].name=s1",
                        "--observatory.mesh.hub.servers[0].route=eu",
                        "--observatory.mesh.hub.servers[0].entry-points[0].name=main",
                        "--observatory.mesh.hub.servers[0].entry-points[0].protocol=direct",
                        "--observatory.mesh.hub.servers[0].entry-points[0].probe-url=" + target.url("/generate_204"),
                        "--observatory.mesh.hub.witnesses[0].name=w1",
                        "--observatory.mesh.hub.witnesses[0].site=de",
                        "--observatory.mesh.hub.witnesses[0].token-file=" + witnessToken);
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", port.join())
                .usePlaintext()
                .build();
    }

    /** Every service and its methods, as the server's reflection lists them (read with the API token). */
    private Map<String, List<MethodDescriptorProto>> methods() throws Exception {
        List<ServerReflectionResponse> listed =
                reflect(ServerReflectionRequest.newBuilder().setListServices("").build());
        Map<String, List<MethodDescriptorProto>> methods = new LinkedHashMap<>();
        for (ServiceResponse service : listed.get(0).getListServicesResponse().getServiceList()) {
            List<ServerReflectionResponse> files = reflect(ServerReflectionRequest.newBuilder()
                    .setFileContainingSymbol(service.getName())
                    .build());
            methods.put(service.getName(), methodsOf(service.getName(), files.get(0)));
        }
        return methods;
    }

    private static List<MethodDescriptorProto> methodsOf(String service, ServerReflectionResponse files)
            throws InvalidProtocolBufferException {
        for (var bytes : files.getFileDescriptorResponse().getFileDescriptorProtoList()) {
            FileDescriptorProto file = FileDescriptorProto.parseFrom(bytes);
            for (ServiceDescriptorProto candidate : file.getServiceList()) {
                String name = file.getPackage().isEmpty()
                        ? candidate.getName()
                        : file.getPackage() + "." + candidate.getName();
                if (name.equals(service)) {
                    return candidate.getMethodList();
                }
            }
        }
        throw new AssertionError("reflection has no descriptor of " + service);
    }

    private List<ServerReflectionResponse> reflect(ServerReflectionRequest request) throws Exception {
        Metadata bearer = new Metadata();
        bearer.put(Authorization.KEY, "Bearer " + TOKEN);
        CompletableFuture<List<ServerReflectionResponse>> done = new CompletableFuture<>();
        List<ServerReflectionResponse> responses = new ArrayList<>();
        StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer))
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .serverReflectionInfo(new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse response) {
                        responses.add(response);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        done.complete(responses);
                    }
                });
        requests.onNext(request);
        requests.onCompleted();
        return done.get(10, TimeUnit.SECONDS);
    }

    /**
     * Calls {@code fullName} with one empty request message and no credential; the status it ends with, or
     * {@code OK} once it answered anything (a stream that keeps going is cancelled then).
     */
    private Status.Code callWithoutCredential(String fullName, MethodDescriptorProto method) {
        MethodDescriptor<byte[], byte[]> descriptor = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(type(method))
                .setFullMethodName(fullName)
                .setRequestMarshaller(BYTES)
                .setResponseMarshaller(BYTES)
                .build();
        ClientCall<byte[], byte[]> call =
                channel.newCall(descriptor, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS));
        CompletableFuture<Status.Code> outcome = new CompletableFuture<>();
        call.start(
                new ClientCall.Listener<>() {
                    @Override
                    public void onMessage(byte[] message) {
                        outcome.complete(Status.Code.OK);
                    }

                    @Override
                    public void onClose(Status status, Metadata trailers) {
                        outcome.complete(status.getCode());
                    }
                },
                new Metadata());
        call.request(1);
        call.sendMessage(new byte[0]);
        call.halfClose();
        Status.Code code = outcome.join();
        call.cancel("the test has its answer", null);
        return code;
    }

    private static MethodDescriptor.MethodType type(MethodDescriptorProto method) {
        if (method.getClientStreaming()) {
            return method.getServerStreaming()
                    ? MethodDescriptor.MethodType.BIDI_STREAMING
                    : MethodDescriptor.MethodType.CLIENT_STREAMING;
        }
        return method.getServerStreaming()
                ? MethodDescriptor.MethodType.SERVER_STREAMING
                : MethodDescriptor.MethodType.UNARY;
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    };
}
