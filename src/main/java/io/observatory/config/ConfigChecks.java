package io.observatory.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/** Checks shared by the validators: each returns the usable value or throws {@link InvalidConfigException}. */
final class ConfigChecks {

    static final String EXPECTED_URL =
            "an absolute http or https URL with a host, e.g. https://example.com/generate_204";

    /** An RFC 9110 token: what HTTP methods and header names are made of. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

    static final String TOKEN_CHARACTERS = "letters, digits and !#$%&'*+-.^_`|~";

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

    /**
     * Parses an absolute http(s) URL with a host, trimmed first (Xray trims its URLs); a blank value yields
     * {@code whenBlank}, which may be {@code null} for "not set".
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
            throw new InvalidConfigException(property, text, EXPECTED_URL, e);
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
            throw new InvalidConfigException(property, text, EXPECTED_URL);
        }
        return url;
    }

    /**
     * Returns {@code duration}, or {@code whenZero} for zero ({@code null} is read as zero): Xray's "0 means the
     * default".
     *
     * @throws InvalidConfigException for a negative duration
     */
    static Duration durationOrDefault(String property, Duration duration, Duration whenZero) {
        if (duration == null || duration.isZero()) {
            return whenZero;
        }
        if (duration.isNegative()) {
            throw new InvalidConfigException(property, GoDuration.format(duration),
                    "a positive duration, or 0 for the default " + GoDuration.format(whenZero));
        }
        return duration;
    }
}
