package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import io.netty.util.NetUtil;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks shared by the validators: each returns the usable value or throws {@link InvalidConfigException}. */
final class ConfigChecks {

    private static final String EXPECTED_URL =
            "an absolute http or https URL with a host, e.g. https://example.com/generate_204";

    private static final String EXPECTED_PORT = "port 1-65535";

    /**
     * Why a URL with {@code _} in its host is rejected although Go and Xray accept it: {@link URI} (and with it
     * reactor-netty's {@code HttpClient.uri(URI)} and the prober's use of {@link URI#getHost()}) reads such an
     * authority as having no host.
     */
    private static final String EXPECTED_URL_HOST =
            "a host name of letters, digits, '-' and '.' ('_' is not supported in probe URLs)";

    /** An RFC 9110 token: what HTTP methods and header names are made of. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

    static final String TOKEN_CHARACTERS = "letters, digits and !#$%&'*+-.^_`|~";

    /** An authority {@link URI} could not read as host and port: optional user-info, host, optional port. */
    private static final Pattern AUTHORITY = Pattern.compile("(?:.*@)?(\\[[^]]*]|[^:]*)(?::(.*))?");

    /** What a proxy host name may be made of (ASCII letters, digits, {@code -}, {@code .}, {@code _}). */
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /** Digits and dots only: not a host name, so it must be an IPv4 literal. */
    private static final Pattern DOTTED_DIGITS = Pattern.compile("[0-9.]+");

    private ConfigChecks() {
    }

    /** Returns {@code true} when {@code text} is {@code null}, empty or only blanks. */
    static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    /** Returns {@code true} when {@code text} is an RFC 9110 token. */
    static boolean isToken(String text) {
        return TOKEN.matcher(text).matches();
    }

    /** Returns {@code true} when {@code text} has a control character (line breaks, tabs, NUL, DEL, C1 controls). */
    static boolean hasControlCharacter(String text) {
        return text.chars().anyMatch(Character::isISOControl);
    }

    /**
     * Returns the proxy address as probes use it: a host name made of ASCII letters, digits, {@code -}, {@code .} and
     * {@code _}, an IPv4 literal, or an IPv6 literal with or without brackets (returned without them).
     *
     * @return the address, or {@code null} when it is not one (e.g. {@code 127.0.0.1:1080}, {@code 10.0.0.256})
     */
    static String hostOrIpLiteral(String address) {
        if (address.startsWith("[") && address.endsWith("]")) {
            String literal = address.substring(1, address.length() - 1);
            return NetUtil.isValidIpV6Address(literal) ? literal : null;
        }
        if (NetUtil.isValidIpV6Address(address)) {
            return address;
        }
        if (DOTTED_DIGITS.matcher(address).matches()) {
            return NetUtil.isValidIpV4Address(address) ? address : null;
        }
        return HOST_NAME.matcher(address).matches() ? address : null;
    }

    /**
     * Parses an absolute http(s) URL with a host and, when given, a port 1-65535, trimmed first (Xray trims its
     * URLs); a blank value yields {@code whenBlank}, which may be {@code null} for "not set". Error lines print the URL
     * with its password masked.
     */
    static URI httpUrl(String property, String text, URI whenBlank) {
        if (isBlank(text)) {
            return whenBlank;
        }
        String trimmed = text.strip();
        URI url;
        try {
            url = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new InvalidConfigException(property, text, EXPECTED_URL, redacted(e));
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))) {
            throw new InvalidConfigException(property, text, EXPECTED_URL);
        }
        if (url.getHost() == null) {
            throw new InvalidConfigException(property, text, expectedWithoutHost(url));
        }
        if (url.getPort() != -1 && (url.getPort() < 1 || url.getPort() > 65_535)) {
            throw new InvalidConfigException(property, text, EXPECTED_PORT);
        }
        return url;
    }

    /**
     * Returns {@code duration}, or {@code whenZero} for zero ({@code null} is read as zero): Xray's "0 means the
     * default". Any positive duration is kept.
     *
     * @throws InvalidConfigException for a negative duration
     */
    static Duration durationOrDefault(String property, Duration duration, Duration whenZero) {
        return durationOrDefault(property, duration, whenZero, null);
    }

    /**
     * Returns {@code duration}, or {@code whenZero} for zero ({@code null} is read as zero): Xray's "0 means the
     * default".
     *
     * @param max the longest duration accepted, or {@code null} for no limit
     * @throws InvalidConfigException for a negative duration or one longer than {@code max}, e.g.
     *     {@code observatory.burst.ping-config.timeout: 1h0m0s (expected: a positive duration up to 10m0s, or 0 for
     *     the default 5s)}
     */
    static Duration durationOrDefault(String property, Duration duration, Duration whenZero, Duration max) {
        if (duration == null || duration.isZero()) {
            return whenZero;
        }
        if (duration.isNegative() || (max != null && duration.compareTo(max) > 0)) {
            String upTo = max == null ? "" : " up to " + GoDuration.format(max);
            throw new InvalidConfigException(property, GoDuration.format(duration),
                    "a positive duration" + upTo + ", or 0 for the default " + GoDuration.format(whenZero));
        }
        return duration;
    }

    /**
     * Returns the path of an existing regular file (links followed), for a property naming a file the service reads.
     *
     * @param what the kind of file, e.g. {@code PEM file}: the errors expect {@code the path of a PEM file} (the
     *     location is no path) or {@code the path of an existing PEM file} (no such file, or a directory)
     * @throws InvalidConfigException naming {@code property} and {@code location}
     */
    static Path regularFile(String property, String location, String what) {
        Path path;
        try {
            path = Path.of(location);
        } catch (InvalidPathException e) {
            throw new InvalidConfigException(property, location, "the path of a " + what, e);
        }
        if (!Files.isRegularFile(path)) {
            throw new InvalidConfigException(property, location, "the path of an existing " + what);
        }
        return path;
    }

    /**
     * Returns {@code value} when it is at least {@code min}.
     *
     * @throws InvalidConfigException otherwise, e.g. {@code observatory.standard.healthy-threshold: 0 (expected: >= 1)}
     */
    static int atLeast(String property, int value, int min) {
        if (value < min) {
            throw new InvalidConfigException(property, Integer.toString(value), ">= " + min);
        }
        return value;
    }

    /**
     * Returns a decimal as a user writes it: {@code 0.3}, {@code 1}, {@code 0.0001}, not {@code 1.0} or
     * {@code 1.0E-4}; {@code NaN} and {@code Infinity} as Java prints them.
     */
    static String decimal(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** What to expect of a URL that {@link URI} parsed without a host: names an invalid port or a {@code _}. */
    private static String expectedWithoutHost(URI url) {
        if (url.getRawAuthority() == null) {
            return EXPECTED_URL;
        }
        Matcher authority = AUTHORITY.matcher(url.getRawAuthority());
        if (!authority.matches()) {
            return EXPECTED_URL;
        }
        String port = authority.group(2);
        if (port != null && !port.isEmpty() && port.chars().allMatch(Character::isDigit)) {
            return EXPECTED_PORT;
        }
        return authority.group(1).indexOf('_') >= 0 ? EXPECTED_URL_HOST : EXPECTED_URL;
    }

    /** A copy of the parse failure whose input has its password masked, with the original stack trace. */
    private static URISyntaxException redacted(URISyntaxException failure) {
        URISyntaxException copy = new URISyntaxException(Redaction.redact(failure.getInput()), failure.getReason(),
                failure.getIndex());
        copy.setStackTrace(failure.getStackTrace());
        return copy;
    }
}
