package io.observatory.testing;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A real gRPC backend (grpc-java's server on a free loopback port) whose one method, {@code test.Backend/Who},
 * answers the backend's name: what a balancer's client sees of where its call went.
 */
public final class NamedBackend {

    private static final MethodDescriptor.Marshaller<String> TEXT = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private static final MethodDescriptor<String, String> WHO = MethodDescriptor.<String, String>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName("test.Backend/Who")
            .setRequestMarshaller(TEXT)
            .setResponseMarshaller(TEXT)
            .build();

    private NamedBackend() {}

    /** Starts a backend answering {@code name}; the caller shuts it down. */
    public static Server start(String name) throws IOException {
        return Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerServiceDefinition.builder("test.Backend")
                        .addMethod(WHO, ServerCalls.asyncUnaryCall((request, response) -> {
                            response.onNext(name);
                            response.onCompleted();
                        }))
                        .build())
                .build()
                .start();
    }

    /** One call through {@code channel}, within 5 s: the name of the backend it reached. */
    public static String call(Channel channel) {
        return ClientCalls.blockingUnaryCall(
                channel, WHO, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS), "");
    }
}
