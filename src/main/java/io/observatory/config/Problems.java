package io.observatory.config;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link Checked} record reports: for each broken rule the property (relative to the record, in kebab case,
 * e.g. {@code password} or {@code outbounds[2].tag}), what a valid value looks like and, when the bound value would
 * not say it, what was found instead. Knows the record's full name, so that an expectation can name a sibling
 * property in full ({@link #name}). Not thread-safe: one per check.
 */
public final class Problems {

    private final String path;
    private final Function<String, @Nullable String> environment;
    private final boolean startUp;
    private final List<Problem> reported = new ArrayList<>();

    /**
     * @param path        the record's full name, e.g. {@code observatory.outbounds[0]}
     * @param environment an environment variable's value by name, {@code null} when unset
     * @param startUp     whether the configuration is the one the process starts with, not a reload
     */
    Problems(String path, Function<String, @Nullable String> environment, boolean startUp) {
        this.path = path;
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
        reported.add(new Problem(property, null, expected));
    }

    /**
     * Reports {@code property} as invalid with {@code found} printed instead of the bound value, e.g.
     * {@code set together with observatory.standard}, or a masked value.
     */
    public void reject(String property, String found, String expected) {
        reported.add(new Problem(property, found, expected));
    }

    /**
     * The full name of a property of this record, e.g. {@code observatory.outbounds[0].username} for
     * {@code username}: how an expectation names a sibling ({@code "a password, since " + name("username") + " is
     * set"}).
     */
    public String name(String property) {
        return path.isEmpty() ? property : path + "." + property;
    }

    /** The value of the environment variable {@code name}, {@code null} when it is not set. */
    public @Nullable String environmentVariable(String name) {
        return environment.apply(name);
    }

    /**
     * Whether the configuration is the one the process starts with rather than a reload: a setting that only a start
     * applies (such as where the state file is kept) checks the file system then only, so that a disk turned
     * read-only meanwhile does not refuse every later reload.
     */
    public boolean startUp() {
        return startUp;
    }

    /** What was reported, in order. */
    List<Problem> reported() {
        return reported;
    }

    /**
     * One broken rule.
     *
     * @param property relative to the record, in kebab case
     * @param found    what to print as found, or {@code null} for the bound value
     * @param expected what a valid value looks like
     */
    record Problem(String property, @Nullable String found, String expected) {}
}
