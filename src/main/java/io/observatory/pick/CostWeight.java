package io.observatory.pick;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * One entry of least-load's {@code costs}: outbounds whose tag it matches get a weight that scales their cost
 * (Xray's {@code StrategyWeight}, applied in {@code app/router/weight.go}).
 *
 * <p>The first entry that matches a tag decides its weight: {@code value} when it is above 0, otherwise the first
 * number ({@code 12} or {@code 1.5}) in the matched text, otherwise 1. Tags no entry matches weigh 1.
 *
 * @param match text that must occur in the tag, or with {@code regexp} an RE2 regular expression (Go's syntax, as in
 *     Xray) that must find a non-empty match in it; 1-256 characters
 * @param regexp whether {@code match} is a regular expression rather than a plain substring
 * @param value the weight, finite and at least 0; 0 (the default in Xray) takes the weight from the matched text
 */
public record CostWeight(String match, boolean regexp, double value) {

    /** The longest {@code match} accepted. */
    public static final int MAX_MATCH_LENGTH = 256;

    /**
     * @throws IllegalArgumentException naming the field, e.g. {@code costs.match: "[a" (expected: an RE2 regular
     *     expression; missing closing ])}, {@code costs.value: -1.0 (expected: >= 0, ...)}
     */
    public CostWeight {
        if (match == null || match.isEmpty() || match.length() > MAX_MATCH_LENGTH) {
            throw SettingMessages.invalid(
                    "costs.match", SettingMessages.quoted(match), "1-" + MAX_MATCH_LENGTH + " characters");
        }
        if (regexp) {
            compile(match);
        }
        if (!Double.isFinite(value) || value < 0) {
            throw SettingMessages.invalid(
                    "costs.value",
                    String.valueOf(value),
                    ">= 0, where 0 takes the weight from the number in the matched tag text");
        }
    }

    /** Compiles {@code match} as RE2, rejecting it with the parser's reason. */
    static Pattern compile(String match) {
        try {
            return Pattern.compile(match);
        } catch (PatternSyntaxException invalid) {
            throw SettingMessages.invalid(
                    "costs.match",
                    SettingMessages.quoted(match),
                    "an RE2 regular expression; " + invalid.getDescription());
        }
    }
}
