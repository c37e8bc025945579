package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoServiceDescriptorSupplier;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What a rebound service shows to reflection and to the server: the same service, one method answered as bytes. */
class SerializedMethodsTest {

    private static final ServerServiceDefinition V1 = io.observatory.api.v1.ObservatoryServiceGrpc.bindService(
            new io.observatory.api.v1.ObservatoryServiceGrpc.AsyncService() {});

    @Test
    void rebindWhenMethodOfTheServiceThenSameNamesAndSchemaAndOnlyThatMarshallerReplaced() {
        MethodDescriptor<?, ?> method = io.observatory.api.v1.ObservatoryServiceGrpc.getGetObservationMethod();

        ServerServiceDefinition rebound = SerializedMethods.rebind(
                V1, io.observatory.api.v1.ObservatoryServiceGrpc.getGetObservationMethod(), (request, responses) -> {});

        assertThat(rebound.getServiceDescriptor().getName()).isEqualTo("observatory.v1.ObservatoryService");
        assertThat(((ProtoServiceDescriptorSupplier)
                                rebound.getServiceDescriptor().getSchemaDescriptor())
                        .getServiceDescriptor()
                        .getFullName())
                .isEqualTo("observatory.v1.ObservatoryService");
        assertThat(rebound.getMethods().stream()
                        .map(m -> m.getMethodDescriptor().getFullMethodName())
                        .collect(Collectors.toSet()))
                .isEqualTo(V1.getMethods().stream()
                        .map(m -> m.getMethodDescriptor().getFullMethodName())
                        .collect(Collectors.toSet()));
        MethodDescriptor<?, ?> bound =
                rebound.getMethod(method.getFullMethodName()).getMethodDescriptor();
        assertThat(bound.getResponseMarshaller()).isSameAs(SerializedMessage.MARSHALLER);
        assertThat(bound.getRequestMarshaller()).isSameAs(method.getRequestMarshaller());
        assertThat(bound.getSchemaDescriptor()).isSameAs(method.getSchemaDescriptor());
        assertThat(rebound.getMethod("observatory.v1.ObservatoryService/Pick").getMethodDescriptor())
                .isSameAs(V1.getMethod("observatory.v1.ObservatoryService/Pick").getMethodDescriptor());
    }

    @Test
    void rebindWhenMethodOfAnotherServiceThenRefusedNamingIt() {
        assertThatThrownBy(() -> SerializedMethods.rebind(
                        V1, ObservatoryServiceGrpc.getGetOutboundStatusMethod(), (request, responses) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("observatory.v1.ObservatoryService has no method"
                        + " xray.core.app.observatory.command.ObservatoryService/GetOutboundStatus");
    }
}
