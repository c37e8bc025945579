package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestPkiTest {

    private static X509Certificate certificate(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    @Test
    void certificatesWhenGeneratedThenBothSignedByTheCaWithTheirUsage() throws Exception {
        X509Certificate ca = certificate(TestPki.caCertificate());
        X509Certificate server = certificate(TestPki.serverCertificate());
        X509Certificate client = certificate(TestPki.clientCertificate());

        assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThatCode(() -> server.verify(ca.getPublicKey())).doesNotThrowAnyException();
        assertThatCode(() -> client.verify(ca.getPublicKey())).doesNotThrowAnyException();
        assertThat(server.getSubjectX500Principal().getName()).isEqualTo("CN=localhost");
        assertThat(server.getSubjectAlternativeNames()).contains(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
        assertThat(server.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(client.getSubjectX500Principal().getName()).isEqualTo("CN=balancer");
        assertThat(client.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
        assertThat(Files.readString(TestPki.clientPrivateKey())).startsWith("-----BEGIN PRIVATE KEY-----\n");
    }
}
