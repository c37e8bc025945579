package io.observatory.config;

/**
 * Quotes a user-supplied value for a one-line error message: in double quotes, with quotes and backslashes escaped,
 * {@code \n}, {@code \r}, {@code \t} and other control characters escaped, and cut when long, so a message stays one
 * line and never grows with the input.
 */
public final class QuotedText {

    private QuotedText() {
    }

    /**
     * @param value    the text; not null
     * @param maxChars how many characters to show at most; a longer value is cut there (never inside a surrogate
     *                 pair) and followed by {@code … (N characters)}
     * @return e.g. {@code "a\nb"} or {@code "xxxx"… (1000 characters)}
     */
    public static String quote(String value, int maxChars) {
        int end = Math.min(value.length(), maxChars);
        if (end < value.length() && end > 0 && Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        StringBuilder quoted = new StringBuilder(end + 24).append('"');
        for (int i = 0; i < end; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"', '\\' -> quoted.append('\\').append(c);
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (Character.isISOControl(c)) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        quoted.append('"');
        return end < value.length() ? quoted.append("… (").append(value.length()).append(" characters)").toString()
                : quoted.toString();
    }
}
