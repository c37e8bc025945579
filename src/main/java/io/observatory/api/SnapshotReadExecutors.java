package io.observatory.api;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Metadata;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.ServerBuilderCustomizer;

/**
 * Runs Xray's {@code GetOutboundStatus} without a second hop to gRPC's call executor when the current snapshot's
 * answer is serialized already: the handler then only hands cached bytes to the transport (measured: 43 against
 * 81 µs of service CPU per call at 1,000 outbounds). grpc-java's per-call executor choice
 * ({@link ServerCallExecutorSupplier}): the method lookup that asks for it runs on the default executor, and with the
 * direct executor the call's interceptors and handler then run on the thread that delivers its request — that
 * executor thread when the request arrived during the lookup, else the transport thread. A call whose snapshot is
 * not serialized yet, and every other call, stays on the executor as usual, so no other handler runs on a transport
 * thread; if a publication lands between this choice and the handler, that thread serializes the new answer once
 * (about 1 ms at 1,000 outbounds). The interceptors in front of the call do not block (the API token file is checked
 * at most once a second, by one call, with a non-blocking lock).
 */
@Configuration(proxyBeanMethods = false)
class SnapshotReadExecutors implements ServerCallExecutorSupplier {

    private final XrayObservatoryService xray;

    SnapshotReadExecutors(XrayObservatoryService xray) {
        this.xray = xray;
    }

    /** Installs this choice of executor on the gRPC server. */
    @Bean
    <T extends ServerBuilder<T>> ServerBuilderCustomizer<T> snapshotReadsOnTheTransport() {
        return builder -> builder.callExecutor(this);
    }

    /** The direct executor for a {@code GetOutboundStatus} whose answer is ready; the server's default otherwise. */
    @Override
    public <RequestT, ResponseT> @Nullable Executor getExecutor(
            ServerCall<RequestT, ResponseT> call, Metadata headers) {
        boolean ready = call.getMethodDescriptor()
                        .getFullMethodName()
                        .equals(ObservatoryServiceGrpc.getGetOutboundStatusMethod()
                                .getFullMethodName())
                && xray.answerReady();
        return ready ? MoreExecutors.directExecutor() : null;
    }
}
