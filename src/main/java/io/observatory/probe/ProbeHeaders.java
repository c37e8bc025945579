package io.observatory.probe;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The request headers every probe sends: what desktop Chrome 158 on Windows (stable in November 2026) sends for a
 * top-level navigation over HTTP/1.1, in Chrome's order and spelling, so that probes look like ordinary browsing
 * (Xray's observer imitates a browser the same way), with {@code observatory.probe.headers} folded in.
 * {@code Accept-Encoding} is left out: the probe does not decode bodies. The {@code sec-ch-ua} brand list is Chrome's
 * GREASE permutation for major version 158; update it together with the {@code User-Agent}.
 */
public final class ProbeHeaders {

    /** Chrome's navigation headers, in Chrome's order. */
    static final Map<String, String> NAVIGATION = navigation();

    private ProbeHeaders() {
    }

    /**
     * Folds {@code configured} into {@link #NAVIGATION}, names compared case-insensitively: an entry replaces the
     * value of a navigation header of the same name in place, an empty value removes it, a new name is added at the
     * end.
     */
    public static Map<String, String> of(Map<String, String> configured) {
        Map<String, String> headers = new LinkedHashMap<>(NAVIGATION);
        Map<String, String> nameByLowerCase = new LinkedHashMap<>();
        NAVIGATION.keySet().forEach(name -> nameByLowerCase.put(name.toLowerCase(Locale.ROOT), name));
        configured.forEach((name, value) -> {
            String key = name.toLowerCase(Locale.ROOT);
            String existing = nameByLowerCase.get(key);
            if (value.isEmpty()) {
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

    private static Map<String, String> navigation() {
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
