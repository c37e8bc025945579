package io.observatory.config;

import java.util.Comparator;
import java.util.List;

/**
 * Xray's subject selector: an outbound is selected when its tag starts with any of the prefixes, so an empty prefix
 * selects every outbound (Go's {@code strings.HasPrefix}, {@code app/proxyman/outbound/outbound.go}). Selections are
 * sorted by tag (Xray probes in that order in sequential mode).
 */
public final class SubjectSelector {

    private final List<String> prefixes;

    /** @param prefixes tag prefixes; empty selects nothing */
    public SubjectSelector(List<String> prefixes) {
        this.prefixes = List.copyOf(prefixes);
    }

    /** Returns {@code true} when no prefix is configured (the observer then never starts). */
    public boolean isEmpty() {
        return prefixes.isEmpty();
    }

    /** Whether {@code tag} starts with one of the prefixes; never for an empty selector. */
    public boolean selects(String tag) {
        return prefixes.stream().anyMatch(tag::startsWith);
    }

    /** Returns the selected outbounds, sorted by tag. */
    public List<Outbound> select(List<Outbound> outbounds) {
        return outbounds.stream()
                .filter(outbound -> selects(outbound.tag()))
                .sorted(Comparator.comparing(Outbound::tag))
                .toList();
    }

    /**
     * The prefixes, e.g. {@code [proxy_, direct]}; an empty prefix, or one with surrounding whitespace, shows quoted
     * ({@code ""}, {@code " "}).
     */
    @Override
    public String toString() {
        return prefixes.stream()
                .map(prefix -> prefix.isEmpty() || !prefix.strip().equals(prefix) ? "\"" + prefix + "\"" : prefix)
                .toList()
                .toString();
    }
}
