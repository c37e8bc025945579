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

    /**
     * Default probe headers: what desktop Chrome 158 on Windows (stable in November 2026) sends for a top-level
     * navigation over HTTP/1.1, in Chrome's order and spelling, so that probes look like ordinary browsing (Xray's
     * observer imitates a browser the same way). {@code Accept-Encoding} is left out: the probe does not decode
     * bodies. The {@code sec-ch-ua} brand list is Chrome's GREASE permutation for major version 158; update it
     * together with the {@code User-Agent}.
     */
    public static final Map<String, String> DEFAULT_HEADERS = defaultHeaders();

    public ProbeSettings {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
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
