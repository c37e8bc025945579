package io.observatory.config;

import jakarta.validation.constraints.Min;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.probe}: settings shared by every probe, whichever observer runs. They take effect at start-up;
 * a reload that changes them says so and applies the rest.
 *
 * @param maxConcurrent       maximum number of probes in flight, at least 1; further probes wait for a free slot,
 *                            none is dropped. Each probe holds one socket, and the JVM raises its soft descriptor limit
 *                            to the hard limit on Linux; 1,024 sockets keep a 10,000-outbound round well inside it.
 *                            Default: 1024
 * @param trustedCertificates path of a PEM file of extra CA certificates trusted in addition to the JDK's, for probe
 *                            URLs served with a private CA; it must hold at least one X.509 certificate; blank means
 *                            none. Default: none, the JDK's trust store only
 * @param headers             request headers of every probe, folded into desktop Chrome's top-level navigation
 *                            headers, which probes send in Chrome's order; names compared case-insensitively: a value
 *                            replaces the browser's, an empty value removes the header, a new name is added at the
 *                            end. Default: none, the navigation headers alone
 */
public record ProbeSettings(
        @DefaultValue("1024") @Min(value = 1, message = "at least 1") int maxConcurrent,
        @Nullable String trustedCertificates,
        @DefaultValue Map<String, String> headers) implements CrossFieldValidated {

    /** An RFC 9110 token: what HTTP methods and header names are made of. */
    static final String TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";

    private static final String TOKEN_CHARACTERS = "letters, digits and !#$%&'*+-.^_`|~";

    private static final String EXPECTED_PEM = "a PEM file with at least one X.509 certificate";

    /** Keeps the headers in their configured order; reads a blank certificate path as none. */
    public ProbeSettings {
        trustedCertificates = trustedCertificates == null || trustedCertificates.isBlank() ? null : trustedCertificates;
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** The trusted certificates file, or {@code null} for none. */
    public @Nullable Path trustedCertificatesPath() {
        return trustedCertificates == null ? null : Path.of(trustedCertificates);
    }

    @Override
    public void validate(Violations violations) {
        headers.forEach((name, value) -> {
            if (!name.matches(TOKEN)) {
                violations.reject("headers", name, "header names made of " + TOKEN_CHARACTERS);
            } else if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                violations.reject("headers[" + name + "]", value, "a header value on one line");
            }
        });
        if (trustedCertificates != null) {
            validateTrustedCertificates(violations);
        }
    }

    /**
     * Reads the file as the prober will, so that a wrong file stops start-up with one line instead of failing when
     * the probe client is built.
     */
    private void validateTrustedCertificates(Violations violations) {
        String property = "trusted-certificates";
        Path path = ReadableFiles.regularFile(violations, property, trustedCertificates, "PEM file");
        if (path == null) {
            return;
        }
        try (InputStream in = Files.newInputStream(path)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                violations.reject(property, EXPECTED_PEM + "; found none");
            }
        } catch (IOException e) {
            violations.reject(property, "a PEM file this process may read");
        } catch (CertificateException e) {
            violations.reject(property, EXPECTED_PEM + "; parse error: " + oneLine(e.getMessage()));
        }
    }

    private static String oneLine(@Nullable String message) {
        return message == null ? "no details" : message.replaceAll("\\s+", " ").strip();
    }
}
