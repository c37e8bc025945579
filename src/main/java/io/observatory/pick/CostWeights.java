package io.observatory.pick;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The weight of each outbound under least-load's {@code costs}, found the way Xray's {@code WeightManager} finds it
 * ({@code app/router/weight.go}): a value is a float32 in Xray's router config ({@code StrategyWeight.value}), so it is
 * rounded to float32 here too (1.1 weighs 1.100000024), while a number read from the matched text keeps double
 * precision ({@code strconv.ParseFloat(s, 64)}).
 */
final class CostWeights {

    /** The weight of a tag that no entry matches, or whose matched text has no number. */
    static final double DEFAULT_WEIGHT = 1;

    /** A whole or decimal number in matched text ({@code \d} is ASCII-only, as in Go). */
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");

    private final List<Entry> entries;

    /** An entry with its regular expression compiled once ({@code null} for a substring entry). */
    private record Entry(CostWeight weight, @Nullable Pattern pattern) {}

    CostWeights(List<CostWeight> costs) {
        this.entries = costs.stream()
                .map(cost -> new Entry(cost, cost.regexp() ? CostWeight.compile(cost.match()) : null))
                .toList();
    }

    /** Returns the weight of {@code tag} by the rule of {@link CostWeight}. */
    double weightOf(String tag) {
        for (Entry entry : entries) {
            String matched = matchedText(entry, tag);
            if (matched.isEmpty()) {
                continue;
            }
            float value = (float) entry.weight().value();
            if (value > 0) {
                return value;
            }
            Matcher number = NUMBER.matcher(matched);
            return number.find() ? Double.parseDouble(number.group()) : DEFAULT_WEIGHT;
        }
        return DEFAULT_WEIGHT;
    }

    /** Returns the text the entry matches in {@code tag}; empty when it does not match (or matches only ""). */
    private static String matchedText(Entry entry, String tag) {
        Pattern pattern = entry.pattern();
        if (pattern == null) {
            return tag.contains(entry.weight().match()) ? entry.weight().match() : "";
        }
        Matcher matcher = pattern.matcher(tag);
        return matcher.find() ? matcher.group() : "";
    }
}
