package io.observatory.api;

import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.stub.ServerCalls;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebinds one unary method of a generated service to a handler that answers with a {@link SerializedMessage}: the
 * method keeps its name, request marshaller and schema (so reflection and clients see the same service), and only
 * its response marshaller becomes {@link SerializedMessage#MARSHALLER}. The other methods stay as bound.
 */
final class SerializedMethods {

    private SerializedMethods() {}

    /**
     * The service with {@code method} answered by {@code handler}.
     *
     * @param service the generated service's definition (its {@code bindService(AsyncService)})
     * @param method  the unary method to rebind, one of {@code service}'s
     * @param handler answers each call with the serialized response, or fails it with a status
     * @throws IllegalArgumentException when {@code service} has no method named as {@code method}
     */
    static <RequestT> ServerServiceDefinition rebind(
            ServerServiceDefinition service,
            MethodDescriptor<RequestT, ?> method,
            ServerCalls.UnaryMethod<RequestT, SerializedMessage> handler) {
        if (service.getMethod(method.getFullMethodName()) == null) {
            throw new IllegalArgumentException(
                    service.getServiceDescriptor().getName() + " has no method " + method.getFullMethodName());
        }
        MethodDescriptor<RequestT, SerializedMessage> serialized = method.toBuilder(
                        method.getRequestMarshaller(), SerializedMessage.MARSHALLER)
                .build();
        ServiceDescriptor original = service.getServiceDescriptor();
        List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
        ServiceDescriptor.Builder descriptor =
                ServiceDescriptor.newBuilder(original.getName()).setSchemaDescriptor(original.getSchemaDescriptor());
        for (ServerMethodDefinition<?, ?> bound : service.getMethods()) {
            if (bound.getMethodDescriptor().getFullMethodName().equals(method.getFullMethodName())) {
                methods.add(ServerMethodDefinition.create(serialized, ServerCalls.asyncUnaryCall(handler)));
                descriptor.addMethod(serialized);
            } else {
                methods.add(bound);
                descriptor.addMethod(bound.getMethodDescriptor());
            }
        }
        ServerServiceDefinition.Builder rebound = ServerServiceDefinition.builder(descriptor.build());
        methods.forEach(rebound::addMethod);
        return rebound.build();
    }
}
