package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.GetOutboundStatusResponse;
import io.observatory.api.xray.ObservationResult;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.api.xray.OutboundStatus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that sends many calls and reads none of the answers, over real HTTP/2 flow control: the answers it has not
 * taken are bounded by the budget, and calls beyond it are refused, so the server's direct memory is not pinned.
 */
class UnreadAnswersTest {

    private static final int OUTBOUNDS = 5_000;
    private static final long BUDGET = 2L << 20;

    private final UnreadAnswers unread = new UnreadAnswers(BUDGET);
    private final GetOutboundStatusResponse answer = answer();
    private Server server;
    private ManagedChannel neverReads;
    private ManagedChannel reads;

    private static GetOutboundStatusResponse answer() {
        ObservationResult.Builder result = ObservationResult.newBuilder();
        for (int i = 0; i < OUTBOUNDS; i++) {
            result.addStatus(OutboundStatus.newBuilder()
                    .setOutboundTag(String.format("outbound-%05d", i))
                    .setAlive(true)
                    .setDelay(12)
                    .setLastSeenTime(1_795_985_070)
                    .setLastTryTime(1_795_985_070));
        }
        return GetOutboundStatusResponse.newBuilder().setStatus(result).build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (ManagedChannel channel : new ManagedChannel[] {neverReads, reads}) {
            if (channel != null) {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    /** A real gRPC server on a free loopback port answering every GetOutboundStatus with the same answer. */
    private Server serving(UnreadAnswers budget) throws IOException {
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerInterceptors.intercept(
                        new ObservatoryServiceGrpc.ObservatoryServiceImplBase() {
                            @Override
                            public void getOutboundStatus(
                                    GetOutboundStatusRequest request,
                                    StreamObserver<GetOutboundStatusResponse> responses) {
                                responses.onNext(answer);
                                responses.onCompleted();
                            }
                        },
                        budget))
                .build()
                .start();
    }

    private ManagedChannel channel() {
        return NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .usePlaintext()
                .flowControlWindow(65_535)
                .maxInboundMessageSize(16 << 20)
                .build();
    }

    @Test
    void callsWhenAClientReadsNoAnswerThenItsUnreadAnswersStayWithinTheBudgetAndOthersAreRefusedUntilItGoes()
            throws Exception {
        server = serving(unread);
        neverReads = channel();
        int calls = (int) (4 * BUDGET / answer.getSerializedSize());
        for (int i = 0; i < calls; i++) {
            ClientCall<GetOutboundStatusRequest, GetOutboundStatusResponse> call =
                    neverReads.newCall(ObservatoryServiceGrpc.getGetOutboundStatusMethod(), CallOptions.DEFAULT);
            call.start(new ClientCall.Listener<>() {}, new Metadata());
            call.sendMessage(GetOutboundStatusRequest.getDefaultInstance());
            call.halfClose();
            // never call.request(1): the answer is never taken, and the connection's window is never returned
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> unread.unreadBytes() > BUDGET - answer.getSerializedSize());
        reads = channel();
        ObservatoryServiceGrpc.ObservatoryServiceBlockingStub reader = ObservatoryServiceGrpc.newBlockingStub(reads);

        StatusRuntimeException refused = catchThrowableOfType(
                StatusRuntimeException.class,
                () -> reader.withDeadlineAfter(5, TimeUnit.SECONDS)
                        .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance()));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(refused.getStatus().getDescription())
                .startsWith("the server holds ")
                .endsWith(" bytes of answers its clients have not read yet, and this answer of "
                        + answer.getSerializedSize() + " bytes would exceed the budget of " + BUDGET
                        + " (expected: a retry after a moment)");
        assertThat(unread.unreadBytes()).isLessThanOrEqualTo(BUDGET);

        neverReads.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(20)).until(() -> unread.unreadBytes() == 0);
        assertThat(reader.withDeadlineAfter(5, TimeUnit.SECONDS)
                        .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance()))
                .isEqualTo(answer);
    }

    @Test
    void callsWhenNothingElseIsUnreadThenAnAnswerLargerThanTheBudgetIsStillSent() throws Exception {
        UnreadAnswers small = new UnreadAnswers(1_000);
        server = serving(small);
        reads = channel();

        assertThat(ObservatoryServiceGrpc.newBlockingStub(reads)
                        .withDeadlineAfter(5, TimeUnit.SECONDS)
                        .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance()))
                .isEqualTo(answer);
        await().atMost(Duration.ofSeconds(5)).until(() -> small.unreadBytes() == 0);
    }
}
