package io.observatory.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** How tokens are held and compared: as UTF-8 bytes, in constant time. */
final class TokenBytes {

    private TokenBytes() {
    }

    /** The UTF-8 bytes of {@code token}. */
    static byte[] of(String token) {
        return token.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether {@code presented} equals {@code expected}, compared with {@link MessageDigest#isEqual}. The presented
     * token goes first: the JDK's loop then runs as long as the presented token whatever the expected one's length,
     * so response times reveal neither how much of a guess was right nor how long the token is.
     */
    static boolean matches(String presented, byte[] expected) {
        return MessageDigest.isEqual(of(presented), expected);
    }
}
