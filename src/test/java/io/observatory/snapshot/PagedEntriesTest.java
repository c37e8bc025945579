package io.observatory.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Replacing entries of a paged snapshot: across page boundaries, the last partial page, and what stays shared. */
class PagedEntriesTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    private static OutboundHealth entry(String tag, HealthState verdict) {
        return new OutboundHealth(tag, null, PassiveView.NONE, List.of(), verdict, NOW, "added");
    }

    @Test
    void withWhenEntriesOnSeveralPagesReplacedThenThoseChangeAndEveryOtherEntryIsTheSameObject() {
        int size = PagedEntries.PAGE * 3 + 5;
        List<OutboundHealth> initial = IntStream.range(0, size)
                .mapToObj(i -> entry(String.format("t%04d", i), HealthState.UNKNOWN))
                .toList();
        PagedEntries entries = PagedEntries.of(initial);
        int[] positions = {0, PagedEntries.PAGE - 1, PagedEntries.PAGE, size - 1};
        OutboundHealth[] replacements = IntStream.of(positions)
                .mapToObj(i -> entry(initial.get(i).tag(), HealthState.HEALTHY))
                .toArray(OutboundHealth[]::new);

        PagedEntries next = entries.with(positions, replacements);

        assertThat(next.size()).isEqualTo(size);
        for (int i = 0; i < size; i++) {
            int position = i;
            int slot = IntStream.range(0, positions.length)
                    .filter(p -> positions[p] == position)
                    .findFirst()
                    .orElse(-1);
            assertThat(next.get(i)).as("entry %d", i).isSameAs(slot >= 0 ? replacements[slot] : initial.get(i));
            assertThat(entries.get(i)).as("old entry %d", i).isSameAs(initial.get(i));
        }
        assertThat(next.asList()).hasSize(size).element(size - 1).isSameAs(replacements[3]);
    }

    @Test
    void ofWhenEmptyThenNoEntries() {
        assertThat(PagedEntries.of(List.of()).asList()).isEmpty();
    }
}
