package io.observatory.config;

import io.observatory.config.ObservatoryProperties.ProbeProperties;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Turns {@code observatory.probe} into {@link ProbeSettings}: concurrency bound, extra trusted CAs, headers. */
final class ProbeSettingsValidator {

    private static final String TRUSTED_CERTIFICATES = "observatory.probe.trusted-certificates";

    private static final String EXPECTED_PEM = "a PEM file with at least one X.509 certificate";

    private ProbeSettingsValidator() {
    }

    /**
     * Validates {@code observatory.probe}.
     *
     * @throws InvalidConfigException for max-concurrent below 1, a trusted-certificates file that is missing,
     *     unreadable or holds no X.509 certificate, or a header that could not be sent
     */
    static ProbeSettings validate(ProbeProperties probe) {
        if (probe.getMaxConcurrent() < 1) {
            throw new InvalidConfigException("observatory.probe.max-concurrent",
                    Integer.toString(probe.getMaxConcurrent()), "at least 1");
        }
        return new ProbeSettings(probe.getMaxConcurrent(), trustedCertificates(probe.getTrustedCertificates()),
                headers(probe.getHeaders()));
    }

    /**
     * Checks that the file exists and holds at least one PEM (or DER) X.509 certificate, read as the prober will read
     * it, so that a wrong file stops startup with one line instead of failing when the probe client is built.
     */
    private static Path trustedCertificates(String location) {
        if (ConfigChecks.isBlank(location)) {
            return null;
        }
        Path path = ConfigChecks.regularFile(TRUSTED_CERTIFICATES, location, "PEM file");
        int certificates;
        try (InputStream in = Files.newInputStream(path)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in).size();
        } catch (IOException e) {
            throw new InvalidConfigException(TRUSTED_CERTIFICATES, location, "a PEM file this process may read", e);
        } catch (CertificateException e) {
            throw new InvalidConfigException(TRUSTED_CERTIFICATES, location,
                    EXPECTED_PEM + "; parse error: " + oneLine(e.getMessage()), e);
        }
        if (certificates == 0) {
            throw new InvalidConfigException(TRUSTED_CERTIFICATES, location, EXPECTED_PEM + "; found none");
        }
        return path;
    }

    private static String oneLine(String message) {
        return message == null ? "no details" : message.replaceAll("\\s+", " ").strip();
    }

    /**
     * Folds the bound headers (defaults first, then the user's entries) case-insensitively: a later entry replaces
     * the value of an earlier one with the same name in place; an empty value removes the header.
     */
    private static Map<String, String> headers(Map<String, String> configured) {
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, String> nameByLowerCase = new LinkedHashMap<>();
        configured.forEach((name, value) -> {
            if (!ConfigChecks.isToken(name)) {
                throw new InvalidConfigException("observatory.probe.headers", name,
                        "header names made of " + ConfigChecks.TOKEN_CHARACTERS);
            }
            if (value != null && value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                throw new InvalidConfigException("observatory.probe.headers[" + name + "]", value,
                        "a header value on one line");
            }
            String key = name.toLowerCase(Locale.ROOT);
            String existing = nameByLowerCase.get(key);
            if (value == null || value.isEmpty()) {
                nameByLowerCase.remove(key);
                headers.remove(existing);
            } else if (existing != null) {
                headers.put(existing, value);
            } else {
                nameByLowerCase.put(key, name);
                headers.put(name, value);
            }
        });
        return headers;
    }
}
