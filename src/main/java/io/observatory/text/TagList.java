package io.observatory.text;

import java.util.Collection;
import java.util.stream.Collectors;

/**
 * Tags for a log line, cut after the first {@value #SHOWN}: a reload of 10,000 outbounds otherwise wrote lines of
 * 120 KB, which container runtimes split at 16 KB (breaking a JSON log record in two) and log pipelines truncate.
 */
public final class TagList {

    /** Tags a line names before it counts the rest. */
    public static final int SHOWN = 20;

    private TagList() {}

    /**
     * Prints tags for a log line, the first few of many.
     *
     * @param tags in the order to print them
     * @return e.g. {@code [a, b]}, or {@code [t00, t01, … t19, … and 9980 more]} beyond {@value #SHOWN}
     */
    public static String of(Collection<String> tags) {
        String shown = tags.stream().limit(SHOWN).collect(Collectors.joining(", "));
        int more = tags.size() - SHOWN;
        return "[" + shown + (more > 0 ? ", … and " + more + " more" : "") + "]";
    }
}
