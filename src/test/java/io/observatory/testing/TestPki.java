package io.observatory.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority with one server and one client certificate, for mTLS tests: made once per JVM by
 * the JDK's {@code keytool} in a temporary directory (so no private key is ever committed), as PEM files that both
 * Spring's PEM SSL bundles and grpc-java's {@code TlsServerCredentials}/{@code TlsChannelCredentials} read.
 *
 * <p>All keys are EC P-256 and certificates are valid for two days. The server certificate names {@code localhost}
 * and {@code 127.0.0.1} (extended key usage serverAuth); the client certificate is {@code CN=balancer} (clientAuth),
 * and a second client certificate names two CNs in one multi-valued RDN, {@code CN=balancer+CN=w1}.
 */
public final class TestPki {

    private static final String PASSWORD = "changeit";
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

    private TestPki() {}

    /** The CA certificate (PEM) that signed both certificates: the trust store of either side. */
    public static Path caCertificate() {
        return Material.DIRECTORY.resolve("ca.crt");
    }

    /** The server certificate (PEM), for {@code localhost} and {@code 127.0.0.1}. */
    public static Path serverCertificate() {
        return Material.DIRECTORY.resolve("server.crt");
    }

    /** The server's private key (PKCS#8 PEM). */
    public static Path serverPrivateKey() {
        return Material.DIRECTORY.resolve("server.key");
    }

    /**
     * A server certificate (PEM) for {@code localhost} and {@code 127.0.0.1} signed by the CA that expired a day ago
     * (valid from three days ago for two days).
     */
    public static Path expiredServerCertificate() {
        return Material.DIRECTORY.resolve("expired.crt");
    }

    /** That certificate's private key (PKCS#8 PEM). */
    public static Path expiredServerPrivateKey() {
        return Material.DIRECTORY.resolve("expired.key");
    }

    /** The client certificate (PEM), {@code CN=balancer}. */
    public static Path clientCertificate() {
        return Material.DIRECTORY.resolve("client.crt");
    }

    /** The client's private key (PKCS#8 PEM). */
    public static Path clientPrivateKey() {
        return Material.DIRECTORY.resolve("client.key");
    }

    /** A client certificate (PEM) whose subject is one multi-valued RDN of two CNs, {@code CN=balancer+CN=w1}. */
    public static Path twoNameClientCertificate() {
        return Material.DIRECTORY.resolve("client-two-names.crt");
    }

    /** That client's private key (PKCS#8 PEM). */
    public static Path twoNameClientPrivateKey() {
        return Material.DIRECTORY.resolve("client-two-names.key");
    }

    // Holder class: the JVM generates the material lazily and exactly once.
    private static final class Material {
        static final Path DIRECTORY = generate();
    }

    private static Path generate() {
        try {
            Path directory = Files.createTempDirectory("observatory-test-pki");
            generate(directory);
            return directory;
        } catch (IOException e) {
            throw new IllegalStateException("cannot generate the test PKI", e);
        }
    }

    private static void generate(Path directory) throws IOException {
        keytool(
                directory,
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=Observatory Test CA",
                "-ext",
                "bc:c",
                "-validity",
                "2",
                "-keystore",
                "ca.p12");
        keytool(directory, "-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.crt");
        issue(directory, "server", "CN=localhost", "san=dns:localhost,ip:127.0.0.1", "eku=serverAuth");
        issue(directory, "expired", "CN=localhost", "san=dns:localhost,ip:127.0.0.1", "eku=serverAuth", "-3d");
        issue(directory, "client", "CN=balancer", null, "eku=clientAuth");
        issue(directory, "client-two-names", "CN=balancer+CN=w1", null, "eku=clientAuth");
    }

    /** Makes a key pair, has the CA sign its certificate, and writes {@code name}.crt and {@code name}.key. */
    private static void issue(Path directory, String name, String subject, String subjectAltName, String usage)
            throws IOException {
        issue(directory, name, subject, subjectAltName, usage, null);
    }

    /** As {@link #issue}, the certificate valid from {@code startDate} (keytool's form, e.g. {@code -3d}) for 2 days. */
    private static void issue(
            Path directory, String name, String subject, String subjectAltName, String usage, String startDate)
            throws IOException {
        String keystore = name + ".p12";
        keytool(
                directory,
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                subject,
                "-validity",
                "2",
                "-keystore",
                keystore);
        keytool(directory, "-certreq", "-alias", name, "-keystore", keystore, "-file", name + ".csr");
        List<String> sign = new ArrayList<>(List.of(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                "ca.p12",
                "-infile",
                name + ".csr",
                "-outfile",
                name + ".crt",
                "-validity",
                "2",
                "-ext",
                usage));
        if (subjectAltName != null) {
            sign.addAll(List.of("-ext", subjectAltName));
        }
        if (startDate != null) {
            sign.addAll(List.of("-startdate", startDate));
        }
        keytool(directory, sign.toArray(String[]::new));
        writePrivateKey(directory.resolve(keystore), name, directory.resolve(name + ".key"));
    }

    private static void writePrivateKey(Path keystore, String alias, Path target) throws IOException {
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            PrivateKey key = (PrivateKey) store.getKey(alias, PASSWORD.toCharArray());
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(key.getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
            Files.writeString(target, pem, StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the key " + alias + " from " + keystore, e);
        }
    }

    private static void keytool(Path directory, String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // A throwaway store needs no key stretching; with it and C1 only, each run takes a third of the time.
        command.addAll(List.of(
                "-J-XX:TieredStopAtLevel=1",
                "-J-XX:+UseSerialGC",
                "-J-Dkeystore.pkcs12.keyPbeIterationCount=1",
                "-J-Dkeystore.pkcs12.certPbeIterationCount=1",
                "-J-Dkeystore.pkcs12.macIterationCount=1"));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-noprompt"));
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + String.join(" ", arguments) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
    }
}
