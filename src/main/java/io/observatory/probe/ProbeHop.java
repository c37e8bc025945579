package io.observatory.probe;

import io.netty.handler.codec.http.HttpHeaderNames;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClientResponse;

/**
 * One request of a probe: the first, or one more after a followed redirect, with what Go's {@code net/http} client
 * sends on it ({@code Client.Do}'s redirect loop and {@code Request.write}).
 *
 * @param url         the URL requested
 * @param method      its method
 * @param host        its {@code Host}: the URL's host and port as written (the first request's may be configured)
 * @param referer     the previous URL, for a followed redirect not from https to http; else {@code null}
 * @param initialHost the first request's host name, lower case: credentials go only to it and its subdomains
 * @param redirects   how many redirects led here, 0 for the first request
 */
record ProbeHop(
        URI url, String method, String host, @Nullable String referer, String initialHost, int redirects) {

    ProbeHop {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(initialHost, "initialHost");
    }

    /** The statuses Go's client follows. */
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    /**
     * The Location Go's client would follow from {@code response}: a 301, 302, 303, 307 or 308 with a non-empty
     * Location; else {@code null}.
     */
    static @Nullable String redirectLocation(HttpClientResponse response) {
        String location = response.responseHeaders().get(HttpHeaderNames.LOCATION);
        return REDIRECTS.contains(response.status().code()) && location != null && !location.isBlank()
                ? location
                : null;
    }

    /** The first request of {@code request}: its URL and method, the Host configured or the URL's. */
    static ProbeHop first(ProbeRequest request, ProbeHeaders headers) {
        return new ProbeHop(
                request.url(),
                request.method(),
                headers.host(authority(request.url())),
                null,
                hostName(request.url()),
                0);
    }

    /**
     * The request Go's client sends after {@code status} with {@code location}: the Location resolved against this
     * URL; GET for a 301, 302 or 303 of a method other than GET and HEAD, the same method otherwise.
     *
     * @throws IllegalArgumentException when the Location is no http or https URL
     */
    ProbeHop redirectTo(String location, int status) {
        URI next = url.resolve(location.strip());
        String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || next.getHost() == null) {
            throw new IllegalArgumentException("redirect to " + next + ": not an http or https URL with a host");
        }
        boolean toGet = status <= 303 && !method.equals("GET") && !method.equals("HEAD");
        boolean downgrade = url.getScheme().equalsIgnoreCase("https") && scheme.equals("http");
        return new ProbeHop(
                next,
                toGet ? "GET" : method,
                authority(next),
                downgrade ? null : withoutUserInfo(url),
                initialHost,
                redirects + 1);
    }

    /** Whether this request goes to the first request's host or one of its subdomains (Go's credential rule). */
    boolean sameDomain() {
        String host = hostName(url);
        return host.equals(initialHost) || host.endsWith("." + initialHost);
    }

    /**
     * The {@code Authorization} Go's client derives from this URL's user info: {@code Basic} of
     * {@code user:password}, decoded, the password empty when there is none; {@code null} without user info.
     */
    @Nullable
    String userInfoAuthorization() {
        String userInfo = url.getUserInfo();
        if (userInfo == null) {
            return null;
        }
        String credentials = userInfo.indexOf(':') >= 0 ? userInfo : userInfo + ":";
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether this request goes over TLS. */
    boolean secure() {
        return url.getScheme().equalsIgnoreCase("https");
    }

    /**
     * A URL's {@code Host} as Go writes it: the host and port as written, without user info and without an empty
     * port ({@code host:} is {@code host}).
     */
    static String authority(URI url) {
        String authority = Objects.requireNonNullElse(url.getRawAuthority(), "");
        String host = authority.substring(authority.lastIndexOf('@') + 1);
        return host.endsWith(":") ? host.substring(0, host.length() - 1) : host;
    }

    private static String hostName(URI url) {
        return Objects.requireNonNullElse(url.getHost(), "").toLowerCase(Locale.ROOT);
    }

    /** Go's Referer leaves out the user info: {@code http://u:p@host/} is {@code http://host/}. */
    private static String withoutUserInfo(URI url) {
        if (url.getRawUserInfo() == null) {
            return url.toString();
        }
        return URI.create(url.getScheme() + "://" + authority(url)
                        + Objects.requireNonNullElse(url.getRawPath(), "")
                        + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                .toString();
    }
}
