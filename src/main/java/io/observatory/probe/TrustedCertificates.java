package io.observatory.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.jspecify.annotations.Nullable;

/** Builds the trust anchors for probe TLS: the JDK's default trust store plus optional extra PEM certificates. */
public final class TrustedCertificates {

    private TrustedCertificates() {}

    /**
     * Returns a trust manager factory trusting the JDK's default anchors and every certificate in {@code extraPem}.
     *
     * @param extraPem PEM file with one or more X.509 certificates (private CAs, test certificates), or {@code null}
     * @throws IllegalStateException if the file cannot be read or holds no certificate
     */
    public static TrustManagerFactory withExtra(@Nullable Path extraPem) {
        try {
            TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jdk.init((KeyStore) null);
            if (extraPem == null) {
                return jdk;
            }
            KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
            anchors.load(null, null);
            int index = 0;
            for (TrustManager manager : jdk.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    for (X509Certificate issuer : x509.getAcceptedIssuers()) {
                        anchors.setCertificateEntry("jdk-" + index++, issuer);
                    }
                }
            }
            Collection<? extends Certificate> extra;
            try (InputStream in = Files.newInputStream(extraPem)) {
                extra = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (extra.isEmpty()) {
                throw new IllegalStateException("no certificate in " + extraPem);
            }
            for (Certificate certificate : extra) {
                anchors.setCertificateEntry("extra-" + index++, certificate);
            }
            TrustManagerFactory combined = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            combined.init(anchors);
            return combined;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot load trusted certificates from " + extraPem + ": " + e, e);
        }
    }
}
