package io.observatory.config;

import io.observatory.text.InvalidValueException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link CrossFieldValidated} record reports: for each broken rule the property (relative to the record, in
 * kebab case, e.g. {@code password} or {@code outbounds[2].tag}), what a valid value looks like and, when the bound
 * value would not say it, what was found instead.
 *
 * <p>The three parts travel to {@link ConfigFailureAnalyzer} inside Bean Validation's message: {@link #encode} escapes
 * them for Hibernate Validator's message interpolation and {@link #decode} reads them back.
 */
public final class Violations {

    /** Ends the found text of a message that carries one: {@code <found> FOUND <expected>}. */
    private static final char FOUND = '\u0000';

    /** Delimits a sibling property name inside an expectation, expanded to its full name when reported. */
    private static final char SIBLING = '\u0001';

    private static final Pattern SIBLING_REFERENCE = Pattern.compile(SIBLING + "([^" + SIBLING + "]*)" + SIBLING);

    private final Function<String, @Nullable String> environment;
    private final boolean startUp;
    private final List<String[]> reported = new ArrayList<>();

    Violations(Function<String, @Nullable String> environment, boolean startUp) {
        this.environment = environment;
        this.startUp = startUp;
    }

    /**
     * Reports {@code property} as invalid; the bound value is printed as found.
     *
     * @param property the property relative to the record, in kebab case
     * @param expected what a valid value looks like, e.g. {@code 1-65535}
     */
    public void reject(String property, String expected) {
        reported.add(new String[] {property, encode(null, expected)});
    }

    /**
     * Reports {@code property} as invalid with {@code found} printed instead of the bound value, e.g.
     * {@code set together with observatory.standard}, or a masked value.
     */
    public void reject(String property, String found, String expected) {
        reported.add(new String[] {property, encode(found, expected)});
    }

    /** The value of the environment variable {@code name}, {@code null} when it is not set. */
    public @Nullable String environmentVariable(String name) {
        return environment.apply(name);
    }

    /**
     * Whether the configuration is the one the process starts with rather than a reload: a setting that only a start
     * applies (such as {@code observatory.state}) checks the file system then only, so that a disk turned read-only
     * meanwhile does not refuse every later reload.
     */
    public boolean startUp() {
        return startUp;
    }

    /**
     * Names a sibling property inside an expectation, e.g. {@code "a password, since " + sibling("username") +
     * " is set"}; the report prints its full name, {@code observatory.outbounds[0].username}.
     */
    public static String sibling(String property) {
        return SIBLING + property + SIBLING;
    }

    boolean isEmpty() {
        return reported.isEmpty();
    }

    /** Gives each violation's property and its message template to {@code action}, in reporting order. */
    void forEach(BiConsumer<String, String> action) {
        reported.forEach(violation -> action.accept(violation[0], violation[1]));
    }

    /**
     * A message template carrying {@code found} (or none) and {@code expected}, escaped for interpolation; the found
     * text is made printable first, so it holds no {@link #FOUND}.
     */
    static String encode(@Nullable String found, String expected) {
        String message = found == null ? expected : InvalidValueException.printable(found) + FOUND + expected;
        return message.replace("\\", "\\\\")
                .replace("{", "\\{")
                .replace("}", "\\}")
                .replace("$", "\\$");
    }

    /**
     * Reads an interpolated message back.
     *
     * @param message      the interpolated message of a constraint violation (of any constraint)
     * @param propertyPath the full name of the record's property path, e.g. {@code observatory.outbounds[0]}, to
     *                     expand sibling references with
     */
    static Decoded decode(String message, String propertyPath) {
        int end = message.indexOf(FOUND);
        Matcher sibling = SIBLING_REFERENCE.matcher(message.substring(end + 1));
        return new Decoded(
                end < 0 ? null : message.substring(0, end),
                sibling.replaceAll(match -> Matcher.quoteReplacement(propertyPath + "." + match.group(1))));
    }

    /**
     * A decoded message.
     *
     * @param found    what to print as the found value, or {@code null} for the bound value
     * @param expected what a valid value looks like, sibling names expanded
     */
    record Decoded(@Nullable String found, String expected) {}
}
