package io.observatory.text;

/**
 * Quotes a user-supplied value for a one-line error message: in double quotes, with quotes and backslashes escaped,
 * {@code \n}, {@code \r}, {@code \t} and other control characters escaped, and cut when long, so a message stays one
 * line and never grows with the input.
 */
public final class QuotedText {

    private QuotedText() {}

    /**
     * Quotes {@code value} as Go's {@code %q} does, cut to {@code maxChars}.
     *
     * @param value    the text; not null
     * @param maxChars how many characters the quoted text may show at most, escapes included; a longer value is cut
     *                 before the character that would pass the limit and followed by {@code … (N characters)}, N being
     *                 the value's length
     * @return e.g. {@code "a\nb"} or {@code "xxxx"… (1000 characters)}
     */
    public static String quote(String value, int maxChars) {
        StringBuilder shown = new StringBuilder(Math.min(value.length(), maxChars) + 2);
        int i = 0;
        while (i < value.length()) {
            int codePoint = value.codePointAt(i);
            String escaped = escape(codePoint);
            if (shown.length() + escaped.length() > maxChars) {
                break;
            }
            shown.append(escaped);
            i += Character.charCount(codePoint);
        }
        String quoted = "\"" + shown + "\"";
        return i < value.length() ? quoted + "… (" + value.length() + " characters)" : quoted;
    }

    private static String escape(int codePoint) {
        return switch (codePoint) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default ->
                Character.isISOControl(codePoint)
                        ? String.format("\\u%04x", codePoint)
                        : new String(Character.toChars(codePoint));
        };
    }
}
