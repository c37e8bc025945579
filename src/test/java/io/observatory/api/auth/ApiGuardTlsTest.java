package io.observatory.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.config.ApiAuthSettings;
import io.observatory.testing.TestPki;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The interceptor behind a real grpc-netty-shaded server with mTLS (client certificates optional, verified against
 * the test CA): a client certificate is a credential of its own, no token needed.
 */
class ApiGuardTlsTest {

    private final List<ManagedChannel> channels = new ArrayList<>();
    private Server server;

    @AfterEach
    void stop() throws InterruptedException {
        for (ManagedChannel channel : channels) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private void serve(boolean trustClientCertificates) throws IOException {
        serve(trustClientCertificates, subject -> false);
    }

    private void serve(boolean trustClientCertificates, Predicate<String> witnessSubject) throws IOException {
        ApiGuard guard = new ApiGuard(
                new ApiAuthSettings(null, null, false, false),
                settings -> ApiToken.NONE,
                trustClientCertificates,
                List.of(witnessSubject::test));
        server = Grpc.newServerBuilderForPort(
                        0,
                        TlsServerCredentials.newBuilder()
                                .keyManager(
                                        TestPki.serverCertificate().toFile(),
                                        TestPki.serverPrivateKey().toFile())
                                .trustManager(TestPki.caCertificate().toFile())
                                .clientAuth(TlsServerCredentials.ClientAuth.OPTIONAL)
                                .build())
                .addService(guard.guard(
                        new CannedObservatoryService(),
                        ServiceAccess.reads(ObservatoryServiceGrpc.getGetObservationMethod())))
                .build()
                .start();
    }

    private ManagedChannel channel(boolean withClientCertificate) throws IOException {
        return withClientCertificate
                ? channel(TestPki.clientCertificate(), TestPki.clientPrivateKey())
                : channel(null, null);
    }

    private ManagedChannel channel(@Nullable Path certificate, @Nullable Path privateKey) throws IOException {
        TlsChannelCredentials.Builder credentials = TlsChannelCredentials.newBuilder()
                .trustManager(TestPki.caCertificate().toFile());
        if (certificate != null && privateKey != null) {
            credentials.keyManager(certificate.toFile(), privateKey.toFile());
        }
        ChannelCredentials built = credentials.build();
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", server.getPort(), built)
                .build();
        channels.add(channel);
        return channel;
    }

    @Test
    void writeWhenClientCertificateVerifiedThenAuthorizedWithoutToken() throws IOException {
        serve(true);

        assertThat(V1Calls.call(channel(true), "ReportOutcomes", null)).isEqualTo(Status.OK);
    }

    @Test
    void writeWhenTlsClientHasNoCertificateThenUnauthenticated() throws IOException {
        serve(true);

        Status refused = V1Calls.call(channel(false), "ReportOutcomes", null);

        assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(refused.getDescription()).isEqualTo(ApiGuard.NOTHING_CONFIGURED);
    }

    @Test
    void writeWhenTheCertificateIsAMeshWitnesssThenItIsNoV1Credential() throws IOException {
        serve(true, "balancer"::equals);

        Status refused = V1Calls.call(channel(true), "ReportOutcomes", null);

        assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    }

    @Test
    void writeWhenAnyOfTheCertificatesCommonNamesIsAMeshWitnesssThenItIsNoV1Credential() throws IOException {
        serve(true, "w1"::equals);

        Status refused = V1Calls.call(
                channel(TestPki.twoNameClientCertificate(), TestPki.twoNameClientPrivateKey()), "ReportOutcomes", null);
        Status balancer = V1Calls.call(channel(true), "ReportOutcomes", null);

        assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(balancer).isEqualTo(Status.OK);
    }

    @Test
    void writeWhenServerDoesNotVerifyCertificatesThenCertificateIsNoCredential() throws IOException {
        serve(false);

        Status refused = V1Calls.call(channel(true), "ReportOutcomes", null);

        assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    }
}
