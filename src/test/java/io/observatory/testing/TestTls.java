package io.observatory.testing;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/**
 * The lab's TLS material: two independent self-signed certificates for {@code localhost} and {@code 127.0.0.1}
 * (PEM files under {@code src/test/resources/tls/}, generated as its README documents), one for tests to trust and
 * one that nobody trusts.
 */
public final class TestTls {

    private TestTls() {}

    /**
     * Returns the PEM file of the trusted server certificate, the one {@link TestTarget#https()} presents; point
     * clients (and {@code observatory.probe.trusted-certificates}) at it.
     */
    public static Path certificatePath() {
        return resource("server.crt");
    }

    /** Returns the PKCS#8 PEM private key of {@link #certificatePath()}. */
    public static Path privateKeyPath() {
        return resource("server.key");
    }

    /**
     * Returns the PEM file of the untrusted certificate, the one {@link TestTarget#httpsUntrusted()} presents; it names
     * {@code localhost} and {@code 127.0.0.1} too, so a handshake against it fails on trust alone.
     */
    public static Path untrustedCertificatePath() {
        return resource("untrusted.crt");
    }

    /** Returns the PKCS#8 PEM private key of {@link #untrustedCertificatePath()}. */
    public static Path untrustedPrivateKeyPath() {
        return resource("untrusted.key");
    }

    /** Returns the shared server context for the trusted pair, built on first use (building one takes tens of ms). */
    static SslContext trustedServerContext() {
        return TrustedServerContext.INSTANCE;
    }

    /** Returns the shared server context for the untrusted pair, built on first use. */
    static SslContext untrustedServerContext() {
        return UntrustedServerContext.INSTANCE;
    }

    /** Builds a server context (JDK provider, no ALPN, so HTTP/1.1 only) from a PEM certificate and PKCS#8 key. */
    private static SslContext serverContext(Path certificate, Path privateKey) {
        try {
            return SslContextBuilder.forServer(certificate.toFile(), privateKey.toFile())
                    .sslProvider(SslProvider.JDK)
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot load " + certificate + " / " + privateKey, e);
        }
    }

    // Holder classes: the JVM initializes each lazily and exactly once, without locks on the read path.
    private static final class TrustedServerContext {
        static final SslContext INSTANCE = serverContext(certificatePath(), privateKeyPath());
    }

    private static final class UntrustedServerContext {
        static final SslContext INSTANCE = serverContext(untrustedCertificatePath(), untrustedPrivateKeyPath());
    }

    private static Path resource(String name) {
        URL url = TestTls.class.getResource("/tls/" + name);
        if (url == null) {
            throw new IllegalStateException("test resource tls/" + name + " is missing");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("test resource tls/" + name + " has no file path: " + url, e);
        }
    }
}
