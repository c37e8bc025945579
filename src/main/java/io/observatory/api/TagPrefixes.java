package io.observatory.api;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.observatory.text.QuotedText;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Checks the tag-prefix lists of the v1 API ({@code selector}, {@code tag_prefixes}) against the contract's limits:
 * at most {@value #MAX_PREFIXES} prefixes of at most {@value #MAX_PREFIX_BYTES} UTF-8 bytes each, none of them empty
 * (Xray's {@code subjectSelector} and balancer {@code selector} are prefix lists of the same kind).
 */
final class TagPrefixes {

    /** Most prefixes one list may hold. */
    public static final int MAX_PREFIXES = 256;

    /** Longest prefix, in UTF-8 bytes. */
    public static final int MAX_PREFIX_BYTES = 256;

    /**
     * Longest echo of a client's string in an error description, in characters; longer ones are cut, so that even
     * 10,000 rejected items of one ReportOutcomes call answer well within a client's default 4 MiB message limit.
     */
    private static final int MAX_QUOTED_CHARS = 64;

    private TagPrefixes() {}

    /**
     * Checks one prefix list of a request.
     *
     * @param field    the request field as the client knows it, e.g. {@code selector}; names the error
     * @param prefixes the list as received
     * @param required whether an empty list is an error ({@code selector}) or means "every outbound"
     *                 ({@code tag_prefixes})
     * @throws StatusRuntimeException {@link Status#INVALID_ARGUMENT} naming the first problem, e.g.
     *     {@code selector: empty (expected: 1-256 tag prefixes)}, {@code tag_prefixes: 300 tag prefixes (expected:
     *     at most 256)}, {@code selector[3]: "" (expected: a non-empty tag prefix)} or {@code selector[0]: 300 bytes
     *     (expected: at most 256)} or {@code selector[1]: "a\n" (expected: a tag prefix without control characters)}
     */
    public static void validate(String field, List<String> prefixes, boolean required) {
        String range = required ? "1-" + MAX_PREFIXES : "at most " + MAX_PREFIXES;
        if (required && prefixes.isEmpty()) {
            throw invalid(field + ": empty (expected: " + range + " tag prefixes)");
        }
        if (prefixes.size() > MAX_PREFIXES) {
            throw invalid(field + ": " + prefixes.size() + " tag prefixes (expected: " + range + ")");
        }
        for (int i = 0; i < prefixes.size(); i++) {
            String prefix = prefixes.get(i);
            if (prefix.isEmpty()) {
                throw invalid(field + "[" + i + "]: \"\" (expected: a non-empty tag prefix)");
            }
            int bytes = prefix.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_PREFIX_BYTES) {
                throw invalid(field + "[" + i + "]: " + bytes + " bytes (expected: at most " + MAX_PREFIX_BYTES + ")");
            }
            if (hasControlCharacters(prefix)) {
                throw invalid(field + "[" + i + "]: " + quote(prefix)
                        + " (expected: a tag prefix without control characters)");
            }
        }
    }

    /** Whether {@code text} has a control character, which no configured tag has. */
    static boolean hasControlCharacters(String text) {
        return text.chars().anyMatch(Character::isISOControl);
    }

    /** An {@link Status#INVALID_ARGUMENT} error with {@code description}. */
    static StatusRuntimeException invalid(String description) {
        return Status.INVALID_ARGUMENT.withDescription(description).asRuntimeException();
    }

    /**
     * A client's string for an error description: in double quotes, with quotes, backslashes and control characters
     * escaped, cut after {@value #MAX_QUOTED_CHARS} characters (then {@code … (N characters)}) so an error never
     * grows with the request.
     */
    static String quote(String value) {
        return QuotedText.quote(value, MAX_QUOTED_CHARS);
    }
}
