package io.observatory.config;

import org.jspecify.annotations.Nullable;

/**
 * {@code observatory.mesh.hub-tls} (witness): TLS to the hubs, and optionally a client certificate, which a hub can
 * recognise the witness by ({@code observatory.mesh.witnesses[i].certificate-subject}) instead of a bearer token.
 * The hub's certificate is verified for the host name in {@code hubs}, also when that name resolves to several
 * replica addresses.
 *
 * @param enabled             whether witnesses speak TLS to the hubs. Default: false (plaintext; keep the hubs on a
 *                            private network then, since the bearer token travels with every call)
 * @param trustedCertificates PEM file of the CA certificates that may sign a hub's certificate. Default: the JDK's
 *                            trust store
 * @param certificateChain    PEM file of this witness's client certificate chain; set together with private-key.
 *                            Default: none
 * @param privateKey          PEM file (PKCS#8) of its private key. Default: none
 */
public record MeshHubTlsSettings(
        boolean enabled,
        @Nullable String trustedCertificates,
        @Nullable String certificateChain,
        @Nullable String privateKey)
        implements CrossFieldValidated {

    /** Reads blank paths as none. */
    public MeshHubTlsSettings {
        trustedCertificates = blankToNull(trustedCertificates);
        certificateChain = blankToNull(certificateChain);
        privateKey = blankToNull(privateKey);
    }

    /** Whether the witness presents a client certificate. */
    public boolean clientCertificate() {
        return enabled && certificateChain != null;
    }

    @Override
    public void validate(Violations violations) {
        if (!enabled) {
            if (trustedCertificates != null || certificateChain != null || privateKey != null) {
                violations.reject("enabled", "false", "true, since files for TLS to the hubs are set");
            }
            return;
        }
        file(violations, "trusted-certificates", trustedCertificates, "PEM file of CA certificates");
        file(violations, "certificate-chain", certificateChain, "PEM file of the client certificate chain");
        file(violations, "private-key", privateKey, "PEM file of the client's private key");
        if ((certificateChain == null) != (privateKey == null)) {
            violations.reject(
                    certificateChain == null ? "certificate-chain" : "private-key",
                    "none",
                    "set together with "
                            + Violations.sibling(certificateChain == null ? "private-key" : "certificate-chain"));
        }
    }

    private static void file(Violations violations, String property, @Nullable String location, String what) {
        if (location != null) {
            ReadableFiles.regularFile(violations, property, location, what);
        }
    }

    private static @Nullable String blankToNull(@Nullable String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
