package io.observatory.api;

import static io.observatory.testing.SyntheticStatuses.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which calls run on the transport thread: a GetOutboundStatus whose snapshot is serialized already, and no other. */
class SnapshotReadExecutorsTest {

    private final FakeScheduler writer = new FakeScheduler();
    private final ObservationUpdater updater =
            new ObservationUpdater(Configs.direct(List.of("a", "b")), writer, writer.clock());
    private final XrayObservatoryService xray = new XrayObservatoryService(updater.store());
    private final SnapshotReadExecutors executors = new SnapshotReadExecutors(xray);
    private Server server;
    private ManagedChannel channel;

    @BeforeEach
    void startServer() throws IOException {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .directExecutor()
                .addService(xray.bindService())
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    }

    @AfterEach
    void stopServer() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    private void publish(boolean alive) {
        writer.execute(() -> ObserverOutput.publish(updater, List.of(status("a", alive), status("b", true))));
        writer.runDue();
    }

    private int read() {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusCount();
    }

    @Test
    void getExecutorWhenTheSnapshotsAnswerIsSerializedThenTheTransportThreadUntilTheNextPublication() {
        publish(true);
        assertThat(executors.getExecutor(call(ObservatoryServiceGrpc.getGetOutboundStatusMethod()), new Metadata()))
                .as("not serialized yet: the executor builds it")
                .isNull();

        assertThat(read()).isEqualTo(2);
        assertThat(executors.getExecutor(call(ObservatoryServiceGrpc.getGetOutboundStatusMethod()), new Metadata()))
                .isSameAs(MoreExecutors.directExecutor());

        publish(false);
        assertThat(executors.getExecutor(call(ObservatoryServiceGrpc.getGetOutboundStatusMethod()), new Metadata()))
                .as("a new snapshot")
                .isNull();
        assertThat(executors.getExecutor(
                        call(io.observatory.api.v1.ObservatoryServiceGrpc.getPickMethod()), new Metadata()))
                .as("any other method")
                .isNull();
    }

    private static <Q, R> ServerCall<Q, R> call(MethodDescriptor<Q, R> method) {
        return new ServerCall<>() {
            @Override
            public void request(int numMessages) {}

            @Override
            public void sendHeaders(Metadata headers) {}

            @Override
            public void sendMessage(R message) {}

            @Override
            public void close(Status status, Metadata trailers) {}

            @Override
            public boolean isCancelled() {
                return false;
            }

            @Override
            public MethodDescriptor<Q, R> getMethodDescriptor() {
                return method;
            }
        };
    }
}
