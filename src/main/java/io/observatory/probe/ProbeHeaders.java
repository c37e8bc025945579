package io.observatory.probe;

import io.netty.handler.codec.http.HttpHeaders;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The request headers of every probe and of every CONNECT request to an {@code http} outbound, as Xray-core puts them
 * on the wire: its Chrome navigation set ({@code common/utils/browser.go}, {@code TryDefaultHeadersWith(header,
 * "nav")}) with {@code observatory.probe.headers} folded in, written in the order of Go's {@code Request.write}:
 * {@code Host}, {@code User-Agent}, {@code Content-Length: 0} for POST, PUT and PATCH, every other header sorted by
 * name (byte order), then what Go's transport adds: {@code Accept-Encoding: gzip} unless the method is HEAD or a
 * {@code Range} is set, and {@code Connection: close} when the client disables keep-alive (Xray's burst ping). A
 * configured header of those names replaces what Go would add; a configured {@code Host} replaces the URL's (Go
 * ignores a Host header; Xray has no configurable probe headers).
 *
 * <p>Immutable; 15 entries with the defaults, shared by every probe.
 */
public final class ProbeHeaders {

    private static final String HOST = "Host";
    private static final String USER_AGENT = "User-Agent";
    private static final String ACCEPT_ENCODING = "Accept-Encoding";
    private static final String CONNECTION = "Connection";

    /** The headers Go's client sends on a redirect only to the first request's domain and its subdomains. */
    private static final Set<String> DOMAIN_CREDENTIALS =
            Set.of("authorization", "www-authenticate", "cookie", "cookie2");

    /** Go's order: by name, byte by byte. */
    private static final Comparator<String[]> BY_NAME = Comparator.comparing(header -> header[0]);

    private final @Nullable String host;
    private final @Nullable String userAgent;
    /** Every header but Host and User-Agent, as {name, value}, sorted by name. */
    private final List<String[]> sorted;
    /** {@link #sorted} without {@link #DOMAIN_CREDENTIALS}: for another domain's hop and for the CONNECT. */
    private final List<String[]> sortedWithoutCredentials;

    private final Map<String, String> all;
    /** In lower case, the names of every header and of those configured empty: Go adds none of them. */
    private final Set<String> lowerCaseNames;
    /** Whether a Range header is sent: Go's transport then asks for no gzip. */
    private final boolean rangeSet;

    private ProbeHeaders(Map<String, String> merged, Set<String> removed) {
        this.all = Collections.unmodifiableMap(merged);
        this.lowerCaseNames = Stream.concat(merged.keySet().stream(), removed.stream())
                .map(name -> name.toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
        this.rangeSet = merged.keySet().stream().anyMatch("range"::equalsIgnoreCase);
        this.host = merged.get(HOST);
        this.userAgent = merged.get(USER_AGENT);
        List<String[]> rest = new ArrayList<>();
        merged.forEach((name, value) -> {
            if (!name.equals(HOST) && !name.equals(USER_AGENT)) {
                rest.add(new String[] {name, value});
            }
        });
        rest.sort(BY_NAME);
        this.sorted = List.copyOf(rest);
        this.sortedWithoutCredentials = rest.stream()
                .filter(header -> !DOMAIN_CREDENTIALS.contains(header[0].toLowerCase(Locale.ROOT)))
                .toList();
    }

    /**
     * Xray's navigation headers for the Chrome version Xray would announce on {@code now}'s day with {@code skew}
     * ({@link XrayChrome#majorVersion}), with {@code configured} folded in as {@link #of(Map, int)} does.
     *
     * @param skew a number in [0, 1), drawn once per process
     */
    public static ProbeHeaders xray(Map<String, String> configured, Instant now, double skew) {
        return of(configured, XrayChrome.majorVersion(now, skew));
    }

    /**
     * Xray's navigation headers for Chrome {@code chromeMajorVersion} with {@code configured} folded in, names
     * compared case-insensitively: a value replaces the default of the same name (keeping the default's spelling), an
     * empty value removes it, a new name is added as written.
     */
    public static ProbeHeaders of(Map<String, String> configured, int chromeMajorVersion) {
        Map<String, String> merged = new LinkedHashMap<>(XrayChrome.navigationHeaders(chromeMajorVersion));
        Map<String, String> nameByLowerCase = new LinkedHashMap<>();
        merged.keySet().forEach(name -> nameByLowerCase.put(name.toLowerCase(Locale.ROOT), name));
        Set<String> removed = new HashSet<>();
        configured.forEach((name, value) -> {
            String key = name.toLowerCase(Locale.ROOT);
            String spelling = canonicalSpecial(key, nameByLowerCase.getOrDefault(key, name));
            merged.remove(spelling);
            if (value.isEmpty()) {
                nameByLowerCase.remove(key);
                removed.add(key);
            } else {
                nameByLowerCase.put(key, spelling);
                removed.remove(key);
                merged.put(spelling, value);
            }
        });
        return new ProbeHeaders(merged, removed);
    }

    /** Host, User-Agent, Accept-Encoding and Connection in Go's spelling, so that they land in their places. */
    private static String canonicalSpecial(String lowerCase, String spelling) {
        return switch (lowerCase) {
            case "host" -> HOST;
            case "user-agent" -> USER_AGENT;
            case "accept-encoding" -> ACCEPT_ENCODING;
            case "connection" -> CONNECTION;
            default -> spelling;
        };
    }

    /**
     * The {@code Host} of a probe's first request: the configured one, else {@code authority}. A followed redirect
     * carries its own target's.
     */
    String host(String authority) {
        return host != null ? host : authority;
    }

    /** Every header, by name (without the request's own Host), for display; unmodifiable. */
    public Map<String, String> asMap() {
        return all;
    }

    /**
     * Replaces {@code out} with the headers of one request of a probe, in Go's order: its Host; User-Agent;
     * {@code Content-Length: 0} for POST, PUT and PATCH; the rest sorted, with the hop's Referer (unless one is
     * configured) and an Authorization from the URL's user info (unless one is configured) sorted in; then
     * Accept-Encoding and Connection as Go's transport adds them. On a hop to another domain than the first request's
     * the configured {@code Authorization}, {@code WWW-Authenticate}, {@code Cookie} and {@code Cookie2} stay behind,
     * as Go's client leaves them ({@code shouldCopyHeaderOnRedirect}).
     *
     * @param close whether to announce {@code Connection: close} (a client without keep-alive)
     */
    void writeRequest(HttpHeaders out, ProbeHop hop, boolean close) {
        out.clear();
        out.add(HOST, hop.host());
        if (userAgent != null) {
            out.add(USER_AGENT, userAgent);
        }
        String method = hop.method();
        if (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
            out.add("Content-Length", "0");
        }
        boolean sameDomain = hop.sameDomain();
        String referer = hop.referer() != null && !lowerCaseNames.contains("referer") ? hop.referer() : null;
        String authorization = hop.userInfoAuthorization();
        if (authorization != null && sameDomain && lowerCaseNames.contains("authorization")) {
            authorization = null;
        }
        writeSorted(
                out,
                sameDomain ? sorted : sortedWithoutCredentials,
                "Referer",
                referer,
                "Authorization",
                authorization);
        if (!method.equals("HEAD") && !lowerCaseNames.contains("accept-encoding") && !rangeSet) {
            out.add(ACCEPT_ENCODING, "gzip");
        }
        if (close && !lowerCaseNames.contains("connection")) {
            out.add(CONNECTION, "close");
        }
    }

    /**
     * Replaces {@code out} with the headers of a CONNECT request to an HTTP proxy, as Xray's {@code http} outbound
     * sends them ({@code proxy/http/client.go}): Host, User-Agent, then the navigation headers with
     * {@code Proxy-Authorization} (when given) and {@code Proxy-Connection: Keep-Alive} sorted in. Configured
     * credentials meant for the target ({@code Authorization}, {@code WWW-Authenticate}, {@code Cookie},
     * {@code Cookie2}) stay out: the proxy would read them in clear text.
     *
     * @param target             the tunnel's target as {@code host:port}
     * @param proxyAuthorization e.g. {@code Basic dTpw}, or {@code null} for none
     */
    void writeConnect(HttpHeaders out, String target, @Nullable String proxyAuthorization) {
        out.clear();
        out.add(HOST, target);
        if (userAgent != null) {
            out.add(USER_AGENT, userAgent);
        }
        writeSorted(
                out,
                sortedWithoutCredentials,
                "Proxy-Authorization",
                proxyAuthorization,
                "Proxy-Connection",
                "Keep-Alive");
    }

    /**
     * Adds {@code base} (sorted by name) to {@code out} with the two extra headers whose values are not {@code null}
     * sorted in; without extras, the common case of a probe, nothing is copied or sorted.
     */
    private static void writeSorted(
            HttpHeaders out,
            List<String[]> base,
            String firstName,
            @Nullable String firstValue,
            String secondName,
            @Nullable String secondValue) {
        List<String[]> headers = base;
        if (firstValue != null || secondValue != null) {
            headers = new ArrayList<>(base.size() + 2);
            headers.addAll(base);
            if (firstValue != null) {
                headers.add(new String[] {firstName, firstValue});
            }
            if (secondValue != null) {
                headers.add(new String[] {secondName, secondValue});
            }
            headers.sort(BY_NAME);
        }
        headers.forEach(header -> out.add(header[0], header[1]));
    }
}
