package io.observatory.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.observatory.api.GrpcPortListener;
import io.observatory.api.RunningServiceTest;
import io.observatory.testing.TestPki;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service with mTLS configured exactly as the README tells operators to (a PEM SSL bundle and
 * {@code spring.grpc.server.ssl.*}, client certificates optional) and no API token: a client certificate issued by the
 * trusted CA authorizes a write, a TLS client without one is refused, and health needs neither.
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(
        properties = {
            "spring.grpc.server.port=0",
            "spring.grpc.server.ssl.bundle=observatory-api",
            "spring.grpc.server.ssl.client-auth=optional",
        })
@Import(RunningServiceTest.PortCapture.class)
class ApiAuthTlsIntegrationTest {

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        String bundle = "spring.ssl.bundle.pem.observatory-api.";
        registry.add(bundle + "keystore.certificate", () -> "file:" + TestPki.serverCertificate());
        registry.add(bundle + "keystore.private-key", () -> "file:" + TestPki.serverPrivateKey());
        registry.add(bundle + "truststore.certificate", () -> "file:" + TestPki.caCertificate());
    }

    @Autowired
    private GrpcPortListener grpcPort;

    private final List<ManagedChannel> channels = new ArrayList<>();

    @AfterEach
    void disconnect() throws InterruptedException {
        for (ManagedChannel channel : channels) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private ManagedChannel channel(boolean withClientCertificate) throws IOException {
        TlsChannelCredentials.Builder credentials = TlsChannelCredentials.newBuilder()
                .trustManager(TestPki.caCertificate().toFile());
        if (withClientCertificate) {
            credentials.keyManager(
                    TestPki.clientCertificate().toFile(),
                    TestPki.clientPrivateKey().toFile());
        }
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", grpcPort.port(), credentials.build())
                .build();
        channels.add(channel);
        return channel;
    }

    @Test
    void writeWhenClientCertificateThenAcceptedWithoutToken() throws IOException {
        assertThat(V1Calls.call(channel(true), "ReportOutcomes", null)).isEqualTo(Status.OK);
    }

    @Test
    void writeWhenTlsWithoutClientCertificateThenUnauthenticated() throws IOException {
        Status refused = V1Calls.call(channel(false), "ReportOutcomes", null);

        assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(refused.getDescription()).isEqualTo(ApiGuard.NOTHING_CONFIGURED);
    }

    @Test
    void healthWhenTlsWithoutClientCertificateThenServing() throws IOException {
        ServingStatus status = HealthGrpc.newBlockingStub(channel(false))
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance())
                .getStatus();

        assertThat(status).isEqualTo(ServingStatus.SERVING);
    }
}
