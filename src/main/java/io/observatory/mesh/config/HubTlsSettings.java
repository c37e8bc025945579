package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import io.observatory.config.ReadableFiles;
import org.jspecify.annotations.Nullable;

/**
 * {@code observatory.mesh.witness.hub-tls}: TLS to the hubs, and optionally a client certificate, which a hub can
 * recognise the witness by ({@code observatory.mesh.hub.witnesses[i].certificate-subject}) instead of a bearer token.
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
public record HubTlsSettings(
        boolean enabled,
        @Nullable String trustedCertificates,
        @Nullable String certificateChain,
        @Nullable String privateKey)
        implements Checked {

    /** Reads blank paths as none. */
    public HubTlsSettings {
        trustedCertificates = blankToNull(trustedCertificates);
        certificateChain = blankToNull(certificateChain);
        privateKey = blankToNull(privateKey);
    }

    /** Whether the witness presents a client certificate. */
    public boolean clientCertificate() {
        return enabled && certificateChain != null;
    }

    @Override
    public void check(Problems problems) {
        if (!enabled) {
            if (trustedCertificates != null || certificateChain != null || privateKey != null) {
                problems.reject("enabled", "false", "true, since files for TLS to the hubs are set");
            }
            return;
        }
        file(problems, "trusted-certificates", trustedCertificates, "PEM file of CA certificates");
        file(problems, "certificate-chain", certificateChain, "PEM file of the client certificate chain");
        file(problems, "private-key", privateKey, "PEM file of the client's private key");
        if ((certificateChain == null) != (privateKey == null)) {
            problems.reject(
                    certificateChain == null ? "certificate-chain" : "private-key",
                    "none",
                    "set together with "
                            + problems.name(certificateChain == null ? "private-key" : "certificate-chain"));
        }
    }

    private static void file(Problems problems, String property, @Nullable String location, String what) {
        if (location != null) {
            ReadableFiles.regularFile(problems, property, location, what);
        }
    }

    private static @Nullable String blankToNull(@Nullable String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
