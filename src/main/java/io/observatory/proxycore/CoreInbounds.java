package io.observatory.proxycore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * The loopback SOCKS inbound of each outbound the core carries, by the outbound's tag: a port that was free when it
 * was chosen, a user name and a random password. Kept for the life of the process, so that a reload or a restart of
 * the core gives an outbound the same inbound and its Observatory outbound stays equal (its status and meters stay);
 * a tag that leaves the file keeps its entry (about 100 bytes) in case it comes back. Thread-safe.
 */
final class CoreInbounds {

    /** Bytes of randomness in a password: 192 bits. */
    private static final int PASSWORD_BYTES = 24;

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Inbound> byTag = new HashMap<>();

    /**
     * One inbound.
     *
     * @param port     its TCP port on 127.0.0.1
     * @param user     the SOCKS5 user name (RFC 1929)
     * @param password the password: secret, never logged
     */
    record Inbound(int port, String user, String password) {

        /** Never prints the password. */
        @Override
        public String toString() {
            return "Inbound[127.0.0.1:" + port + ", user " + user + "]";
        }
    }

    /** The inbound of {@code tag}, chosen the first time it is asked for. */
    synchronized Inbound of(String tag) {
        Inbound known = byTag.get(tag);
        if (known != null) {
            return known;
        }
        Set<Integer> taken = new HashSet<>();
        byTag.values().forEach(inbound -> taken.add(inbound.port()));
        int port = freePort();
        // The kernel may hand out a port again once it is closed: never give two tags the same one.
        for (int tries = 0; taken.contains(port) && tries < 100; tries++) {
            port = freePort();
        }
        Inbound fresh = new Inbound(port, user(), password());
        byTag.put(tag, fresh);
        return fresh;
    }

    private String user() {
        byte[] bytes = new byte[4];
        random.nextBytes(bytes);
        return "observatory-" + HexFormat.of().formatHex(bytes);
    }

    private String password() {
        byte[] bytes = new byte[PASSWORD_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * A port on 127.0.0.1 the kernel just gave out and took back. Another process may take it before the core binds
     * it; the core then fails to start, names the port, and is restarted with the same one until it is free.
     */
    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on 127.0.0.1 for the core's inbound", e);
        }
    }
}
