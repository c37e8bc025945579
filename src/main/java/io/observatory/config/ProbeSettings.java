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
import java.util.Locale;
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
 * @param headers             request headers sent with every probe, in order: desktop Chrome's top-level navigation
 *                            headers ({@link #DEFAULT_HEADERS}) merged with the entries set here, names compared
 *                            case-insensitively: a value replaces the default's, an empty value removes the header, a
 *                            new name is added. Default: the navigation headers
 */
public record ProbeSettings(
        @DefaultValue("1024") @Min(value = 1, message = "at least 1") int maxConcurrent,
        @Nullable String trustedCertificates,
        @DefaultValue Map<String, String> headers) implements CrossFieldValidated {

    /** An RFC 9110 token: what HTTP methods and header names are made of. */
    static final String TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";

    private static final String TOKEN_CHARACTERS = "letters, digits and !#$%&'*+-.^_`|~";

    private static final String EXPECTED_PEM = "a PEM file with at least one X.509 certificate";

    /**
     * What desktop Chrome 158 on Windows (stable in November 2026) sends for a top-level navigation over HTTP/1.1,
     * in Chrome's order and spelling, so that probes look like ordinary browsing (Xray's observer imitates a browser
     * the same way). {@code Accept-Encoding} is left out: the probe does not decode bodies. The {@code sec-ch-ua}
     * brand list is Chrome's GREASE permutation for major version 158; update it together with the
     * {@code User-Agent}.
     */
    public static final Map<String, String> DEFAULT_HEADERS = defaultHeaders();

    /** Merges the configured headers into {@link #DEFAULT_HEADERS}; reads a blank certificate path as none. */
    public ProbeSettings {
        trustedCertificates = trustedCertificates == null || trustedCertificates.isBlank() ? null : trustedCertificates;
        headers = merged(headers);
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

    /**
     * Folds {@code configured} into the defaults case-insensitively: an entry replaces the value of a default with the
     * same name in place, an empty value removes it, a new name is added at the end.
     */
    private static Map<String, String> merged(Map<String, String> configured) {
        Map<String, String> headers = new LinkedHashMap<>(DEFAULT_HEADERS);
        Map<String, String> nameByLowerCase = new LinkedHashMap<>();
        DEFAULT_HEADERS.keySet().forEach(name -> nameByLowerCase.put(name.toLowerCase(Locale.ROOT), name));
        configured.forEach((name, value) -> {
            String key = name.toLowerCase(Locale.ROOT);
            String existing = nameByLowerCase.get(key);
            if (value == null || value.isEmpty()) {
                nameByLowerCase.remove(key);
                if (existing != null) {
                    headers.remove(existing);
                }
            } else if (existing != null) {
                headers.put(existing, value);
            } else {
                nameByLowerCase.put(key, name);
                headers.put(name, value);
            }
        });
        return Collections.unmodifiableMap(headers);
    }

    private static Map<String, String> defaultHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("sec-ch-ua", "\"Chromium\";v=\"158\", \"Not.A/Brand\";v=\"24\", \"Google Chrome\";v=\"158\"");
        headers.put("sec-ch-ua-mobile", "?0");
        headers.put("sec-ch-ua-platform", "\"Windows\"");
        headers.put("Upgrade-Insecure-Requests", "1");
        headers.put("User-Agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/158.0.0.0 Safari/537.36");
        headers.put("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
                + "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7");
        headers.put("Sec-Fetch-Site", "none");
        headers.put("Sec-Fetch-Mode", "navigate");
        headers.put("Sec-Fetch-User", "?1");
        headers.put("Sec-Fetch-Dest", "document");
        headers.put("Accept-Language", "en-US,en;q=0.9");
        return Collections.unmodifiableMap(headers);
    }
}
