package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestTlsTest {

    @Test
    void certificatesWhenLoadedThenLeafForLocalhostValidForACentury() throws Exception {
        for (Path path : List.of(TestTls.certificatePath(), TestTls.untrustedCertificatePath())) {
            X509Certificate certificate = load(path);

            assertThat(certificate.getSubjectX500Principal()).isEqualTo(certificate.getIssuerX500Principal());
            assertThat(certificate.getBasicConstraints()).as("not a CA").isEqualTo(-1);
            assertThat(certificate.getSubjectAlternativeNames())
                    .containsExactlyInAnyOrder(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
            assertThat(certificate.getNotAfter().toInstant())
                    .isAfter(Instant.now().plus(99 * 365, ChronoUnit.DAYS));
        }
    }

    @Test
    void untrustedWhenComparedThenDifferentKeyPair() throws Exception {
        assertThat(load(TestTls.untrustedCertificatePath()).getPublicKey())
                .isNotEqualTo(load(TestTls.certificatePath()).getPublicKey());
        assertThat(Files.readString(TestTls.privateKeyPath())).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(Files.readString(TestTls.untrustedPrivateKeyPath())).startsWith("-----BEGIN PRIVATE KEY-----");
    }

    private static X509Certificate load(Path path) throws IOException, CertificateException {
        try (InputStream in = Files.newInputStream(path)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }
}
