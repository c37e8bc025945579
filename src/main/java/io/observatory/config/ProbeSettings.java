package io.observatory.config;

import io.netty.util.NetUtil;
import jakarta.validation.constraints.Min;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
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
 * @param headers             request headers of every probe and CONNECT, folded into Xray's Chrome navigation
 *                            headers, which go out in Go's order; names compared case-insensitively: a value replaces
 *                            the default, an empty value removes it (and what Go's transport would add of that name),
 *                            a new name is sorted in. Values are trimmed as Go trims them and must be visible ASCII
 *                            with spaces and tabs inside; at most 64 headers of at most 4,096 characters; the
 *                            headers that frame the request or belong to the outbound (Content-Length,
 *                            Transfer-Encoding, Trailer, TE, Upgrade, Expect, Proxy-Authorization, Proxy-Connection)
 *                            are refused. Default: none, the navigation headers alone
 * @param sourceAddress       local IP address every probe connection binds to (a multi-homed host chooses its
 *                            egress; an IPv6 address may be in brackets); it must be an address of this host, checked
 *                            at start-up by binding to it. Probes to a target or proxy of the other IP family then
 *                            fail. Blank means none. Default: none, the kernel chooses
 */
public record ProbeSettings(
        @DefaultValue("1024") @Min(value = 1, message = "at least 1")
        int maxConcurrent,

        @Nullable String trustedCertificates,
        @DefaultValue Map<String, String> headers,
        @Nullable String sourceAddress)
        implements Checked {

    /** An RFC 9110 token: what HTTP methods and header names are made of. */
    static final String TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";

    private static final String TOKEN_CHARACTERS = "letters, digits and !#$%&'*+-.^_`|~";

    private static final String EXPECTED_PEM = "a PEM file with at least one X.509 certificate";

    /** The most headers accepted. */
    static final int MAX_HEADERS = 64;

    /** The longest header value accepted, in characters: a line well inside common servers' 8 KiB limit. */
    static final int MAX_VALUE_LENGTH = 4_096;

    /**
     * Headers the prober sets itself, in lower case: the request's framing ({@code Content-Length},
     * {@code Transfer-Encoding}, {@code Trailer}, {@code TE}, {@code Upgrade}, {@code Expect}) and what each
     * {@code http} outbound's CONNECT carries ({@code Proxy-Authorization}, {@code Proxy-Connection}).
     */
    static final Set<String> PROBER_HEADERS = Set.of(
            "content-length",
            "transfer-encoding",
            "trailer",
            "te",
            "upgrade",
            "expect",
            "proxy-authorization",
            "proxy-connection");

    /** A field value after trimming: visible ASCII, with spaces and tabs inside (RFC 9110 without obs-text). */
    private static final Pattern FIELD_VALUE = Pattern.compile("([\\x21-\\x7E]([\\x20-\\x7E\\t]*[\\x21-\\x7E])?)?");

    /** Keeps the headers in their configured order, their values trimmed as Go trims them; a blank path is none. */
    public ProbeSettings {
        trustedCertificates = trustedCertificates == null || trustedCertificates.isBlank() ? null : trustedCertificates;
        Map<String, String> trimmed = new LinkedHashMap<>();
        headers.forEach((name, value) -> trimmed.put(name, value.strip()));
        headers = Collections.unmodifiableMap(trimmed);
        sourceAddress = sourceAddress == null || sourceAddress.isBlank() ? null : sourceAddress.strip();
        if (sourceAddress != null
                && sourceAddress.length() > 2
                && sourceAddress.startsWith("[")
                && sourceAddress.endsWith("]")) {
            sourceAddress = sourceAddress.substring(1, sourceAddress.length() - 1);
        }
    }

    /** The local address probes bind to (port 0), or {@code null} when the kernel chooses; validated. */
    public @Nullable InetSocketAddress sourceSocketAddress() {
        if (sourceAddress == null || !isIpLiteral(sourceAddress)) {
            return null;
        }
        try {
            // A literal (scope included) is parsed, never looked up.
            return new InetSocketAddress(InetAddress.getByName(sourceAddress), 0);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an IP literal that InetAddress cannot read: " + sourceAddress, e);
        }
    }

    private static boolean isIpLiteral(String address) {
        return NetUtil.isValidIpV4Address(address) || NetUtil.isValidIpV6Address(address);
    }

    /** The trusted certificates file, or {@code null} for none. */
    public @Nullable Path trustedCertificatesPath() {
        return trustedCertificates == null ? null : Path.of(trustedCertificates);
    }

    @Override
    public void check(Problems problems) {
        if (headers.size() > MAX_HEADERS) {
            problems.reject("headers", headers.size() + " headers", "at most " + MAX_HEADERS);
        }
        headers.forEach((name, value) -> {
            if (!name.matches(TOKEN)) {
                problems.reject("headers", name, "header names made of " + TOKEN_CHARACTERS);
            } else if (PROBER_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                problems.reject(
                        "headers",
                        name,
                        "a header the prober does not set itself (it sets Content-Length,"
                                + " Transfer-Encoding, Trailer, TE, Upgrade, Expect, Proxy-Authorization, Proxy-Connection)");
            } else if (value.length() > MAX_VALUE_LENGTH) {
                problems.reject(
                        "headers[" + name + "]",
                        value.length() + " characters",
                        "at most " + MAX_VALUE_LENGTH + " characters");
            } else if (!FIELD_VALUE.matcher(value).matches()) {
                problems.reject(
                        "headers[" + name + "]",
                        value,
                        "a header value of visible ASCII characters, with spaces and tabs inside");
            }
        });
        if (trustedCertificates != null) {
            validateTrustedCertificates(problems, trustedCertificates);
        }
        if (sourceAddress != null) {
            validateSourceAddress(problems, sourceAddress);
        }
    }

    /** Binds to the address as a probe will, so that a foreign address stops start-up instead of every probe. */
    private void validateSourceAddress(Problems problems, String address) {
        String property = "source-address";
        if (!isIpLiteral(address)) {
            problems.reject(property, "an IPv4 or IPv6 address of this host, e.g. 192.0.2.10 or [2001:db8::10]");
            return;
        }
        try {
            new DatagramSocket(sourceSocketAddress()).close();
        } catch (IOException e) {
            problems.reject(
                    property, "an address of this host (binding to it failed: " + oneLine(e.getMessage()) + ")");
        }
    }

    /**
     * Reads the file as the prober will, so that a wrong file stops start-up with one line instead of failing when
     * the probe client is built.
     */
    private void validateTrustedCertificates(Problems problems, String location) {
        String property = "trusted-certificates";
        Path path = ReadableFiles.regularFile(problems, property, location, "PEM file");
        if (path == null) {
            return;
        }
        try (InputStream in = Files.newInputStream(path)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                problems.reject(property, EXPECTED_PEM + "; found none");
            }
        } catch (IOException e) {
            problems.reject(property, "a PEM file this process may read");
        } catch (CertificateException e) {
            problems.reject(property, EXPECTED_PEM + "; parse error: " + oneLine(e.getMessage()));
        }
    }

    private static String oneLine(@Nullable String message) {
        return message == null ? "no details" : message.replaceAll("\\s+", " ").strip();
    }
}
