package io.observatory.snapshot;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The entries of one snapshot in tag order, in pages of {@value #PAGE} so that the next snapshot shares every page
 * it does not change: replacing k entries copies the page table (one reference per {@value #PAGE} entries) and at
 * most k pages, not the whole array — at 10,000 outbounds about 160 + 64·k references instead of 10,000. Immutable.
 * Costs one reference per entry and one per page.
 */
final class PagedEntries {

    /** Entries per page. */
    static final int PAGE = 64;

    private static final int SHIFT = Integer.numberOfTrailingZeros(PAGE);

    private final OutboundHealth[][] pages;
    private final int size;

    private PagedEntries(OutboundHealth[][] pages, int size) {
        this.pages = pages;
        this.size = size;
    }

    /** The entries of {@code inOrder}, in that order. */
    static PagedEntries of(List<OutboundHealth> inOrder) {
        int size = inOrder.size();
        OutboundHealth[][] pages = new OutboundHealth[(size + PAGE - 1) / PAGE][];
        for (int page = 0; page < pages.length; page++) {
            int from = page * PAGE;
            pages[page] = inOrder.subList(from, Math.min(size, from + PAGE)).toArray(new OutboundHealth[0]);
        }
        return new PagedEntries(pages, size);
    }

    /** The entry at {@code position}, 0 to {@link #size()} - 1. */
    OutboundHealth get(int position) {
        return pages[position >>> SHIFT][position & (PAGE - 1)];
    }

    /** The number of entries. */
    int size() {
        return size;
    }

    /**
     * These entries with {@code replacements[i]} at {@code positions[i]}; this one is unchanged.
     *
     * @param positions    where, each 0 to {@link #size()} - 1
     * @param replacements what, as many as {@code positions}
     */
    PagedEntries with(int[] positions, OutboundHealth[] replacements) {
        OutboundHealth[][] next = pages.clone();
        for (int i = 0; i < positions.length; i++) {
            int page = positions[i] >>> SHIFT;
            if (next[page] == pages[page]) {
                next[page] = pages[page].clone();
            }
            next[page][positions[i] & (PAGE - 1)] = replacements[i];
        }
        return new PagedEntries(next, size);
    }

    /** The entries as an unmodifiable list view, no copy. */
    List<OutboundHealth> asList() {
        return new View();
    }

    private final class View extends AbstractList<OutboundHealth> implements RandomAccess {

        @Override
        public OutboundHealth get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException("index " + index + " of " + size);
            }
            return PagedEntries.this.get(index);
        }

        @Override
        public int size() {
            return size;
        }
    }
}
