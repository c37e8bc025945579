package io.observatory.testing;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * The one username/password pair a lab proxy accepts.
 *
 * @param username non-null; RFC 1929 allows 1–255 bytes
 * @param password non-null; RFC 1929 allows 1–255 bytes
 */
record Credentials(String username, String password) {

    Credentials {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
    }

    /** Returns {@code true} when both values equal this pair's (SOCKS5 username/password, RFC 1929). */
    boolean matches(String username, String password) {
        return this.username.equals(username) && this.password.equals(password);
    }

    /**
     * Returns {@code true} when a {@code Proxy-Authorization} header value carries this pair with the Basic scheme
     * (RFC 7617; the scheme name is case-insensitive, the token is compared in its canonical padded Base64 form).
     *
     * @param header the header value, or {@code null} when the request has none
     */
    boolean matchesBasic(String header) {
        String scheme = "Basic ";
        if (header == null || !header.regionMatches(true, 0, scheme, 0, scheme.length())) {
            return false;
        }
        String token = Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        return header.substring(scheme.length()).trim().equals(token);
    }
}
