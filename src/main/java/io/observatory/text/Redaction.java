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
     * Keys whose names look secret but whose values are not, wherever they are (the API's, a mesh witness's, a hub's
     * witnesses'): where a token is kept (a file path, the name of an environment variable) and the switches about
     * tokens. Their values are printed so that an error names the file or the variable; the validator masks a
     * {@code token-env} value that is not a variable name, since it may be the token.
     */
    /** Keys whose values hold credentials though their names do not say so: a mesh entry point's Xray outbound. */
    private static final Set<String> SECRET_KEYS = Set.of("outbound");

    /** Properties whose values are credentials by where they are: a webhook's URL (Slack's and Discord's hold a key). */
    private static final Pattern SECRET_PATHS = Pattern.compile("observatory\\.notifications\\.webhooks\\[\\d+]\\.url");

    private static final Set<String> NOT_SECRET_KEYS = Set.of(
            "token-file",
            "token-env",
            "password-file",
            "secret-file",
            "require-for-reads",
            "xray-reads-open",
            "token-over-plaintext");

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
     * {@code @} of the authority and the password starts after its first {@code :}. Text without a password is
     * returned unchanged.
     */
    public static String redact(String text) {
        return USER_INFO_PASSWORD.matcher(text).replaceFirst("$1" + MASK + "@");
    }

    /**
     * Returns {@code true} when a property of this name holds a secret whose value must not be printed, e.g.
     * {@code observatory.outbounds[0].password} or {@code observatory.probe.headers[Authorization]}; {@code false}
     * for {@code observatory.passive.*} and for any {@code token-file}, {@code password-file}, {@code secret-file},
     * {@code token-env} and the switches about
     * tokens ({@code require-for-reads}, {@code xray-reads-open}, {@code token-over-plaintext}), which say where a
     * token is or how it may travel rather than hold it.
     */
    public static boolean isSecretName(String propertyName) {
        String name = propertyName.toLowerCase(Locale.ROOT);
        String key = name.substring(name.lastIndexOf('.') + 1);
        return SECRET_KEYS.contains(key)
                || SECRET_PATHS.matcher(name).matches()
                || (!NOT_SECRET_KEYS.contains(key) && SECRET_NAME.matcher(name).find());
    }
}
