package io.observatory.text;

import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of text the service prints: configuration error lines, warnings and log lines.
 *
 * <p>A URL keeps its user name and loses its password, as Go's {@code url.URL.Redacted()} does (Xray users know that
 * form): {@code http://user:s3cret@host/} prints as {@code http://user:******@host/}. A property whose name looks like
 * it holds a secret (a password, token, key, credential or authorization) prints as {@link #MASK}.
 */
public final class Redaction {

    /** What a secret prints as. */
    public static final String MASK = "******";

    /**
     * Name fragments of properties that hold secrets: {@code password} and its usual misspellings ({@code pasword},
     * {@code passwd}, {@code pwd}), {@code secret}, {@code token}, {@code key}, {@code credential},
     * {@code authorization}. A heuristic, so that a misspelled key does not print the password it holds. The word
     * {@code passive} ({@code observatory.passive.*}) is not a password.
     */
    private static final Pattern SECRET_NAME =
            Pattern.compile("pass(?!ive)|pa?s+w|pwd|\\bpw\\b|secret|token|key|cred|auth");

    /**
     * Properties whose names look secret but whose values are not: where the API token is kept (a file path, the name
     * of an environment variable) and a switch. Their values are printed so that an error names the file or the
     * variable; the validator masks a {@code token-env} value that is not a variable name, since it may be the token.
     */
    private static final Set<String> NOT_SECRET = Set.of(
            "observatory.api.auth.token-file",
            "observatory.api.auth.token-env",
            "observatory.api.auth.require-for-reads");

    /** Group 1 runs to the first {@code :} of the authority; the match ends at the last {@code @} of the authority. */
    private static final Pattern USER_INFO_PASSWORD = Pattern.compile("^([^/?#]*://[^/?#:]*:)[^/?#]+@");

    private Redaction() {}

    /**
     * Returns the URL as text with the password of its user-info masked, e.g. {@code http://user:******@host/}; a URL
     * without a password, or with an empty one, prints unchanged.
     */
    public static String redact(URI url) {
        return redact(url.toString());
    }

    /**
     * Returns {@code text} with the password of a leading {@code scheme://user:password@} masked; works on text that
     * is not a valid URI too (what a user configured). Follows Go's {@code url.Parse}: the user-info ends at the last
     * {@code @} of the authority and the password starts after its first {@code :}. Text without a password, or
     * {@code null}, is returned unchanged.
     */
    public static String redact(String text) {
        return text == null ? null : USER_INFO_PASSWORD.matcher(text).replaceFirst("$1" + MASK + "@");
    }

    /**
     * Returns {@code true} when a property of this name holds a secret whose value must not be printed, e.g.
     * {@code observatory.outbounds[0].password} or {@code observatory.probe.headers[Authorization]}; {@code false}
     * for {@code observatory.passive.*} and for {@code observatory.api.auth.token-file}, {@code token-env} and
     * {@code require-for-reads}, which say where the token is rather than hold it.
     */
    public static boolean isSecretName(String propertyName) {
        String name = propertyName.toLowerCase(Locale.ROOT);
        return !NOT_SECRET.contains(name) && SECRET_NAME.matcher(name).find();
    }
}
