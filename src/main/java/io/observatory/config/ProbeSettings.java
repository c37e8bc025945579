package io.observatory.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Validated settings shared by every probe, whichever observer runs.
 *
 * @param maxConcurrent probes in flight at most; further probes wait for a slot (never dropped); positive
 * @param trustedCertificates PEM file of extra trusted CA certificates added to the JDK trust store, or {@code null}
 * @param headers request headers sent with every probe (browser top-level navigation by default), in order
 */
public record ProbeSettings(int maxConcurrent, Path trustedCertificates, Map<String, String> headers) {

    /**
     * Default bound on probes in flight. Each probe holds one socket; the JVM raises its soft descriptor limit to the
     * hard limit on Linux, and 1,024 sockets keep a 10,000-outbound round well inside it.
     */
    public static final int DEFAULT_MAX_CONCURRENT = 1024;

    public ProbeSettings {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }
}
