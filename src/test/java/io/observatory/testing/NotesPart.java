package io.observatory.testing;

import io.observatory.management.PartView;
import io.observatory.snapshot.SnapshotPart;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A capability's part for tests of the core's ports: a text, published with no health source, shown as
 * {@code {"text": ...}} in the endpoint (left out while empty) and on its status-page panel, whose events after the
 * first carry only what was appended when the text grew ({@code {"appended": ...}}).
 */
public final class NotesPart implements PartView<String, Map<String, String>> {

    /** The part, {@code notes}, empty until published. */
    public static final SnapshotPart<String> PART = new SnapshotPart<>("notes", String.class, "");

    private int changesBuilt;

    @Override
    public SnapshotPart<String> part() {
        return PART;
    }

    @Override
    public @Nullable Object endpointJson(String value) {
        return value.isEmpty() ? null : Map.of("text", value);
    }

    @Override
    public Map<String, String> pageJson(String value, Instant now) {
        return Map.of("text", value);
    }

    /** What was appended, as {@code {"appended": ...}}; {@code null} (the whole text) when the text was not appended to. */
    @Override
    public @Nullable Object pageChanges(Map<String, String> before, Map<String, String> after) {
        changesBuilt++;
        String was = before.get("text");
        String is = after.get("text");
        return is.startsWith(was) ? Map.of("appended", is.substring(was.length())) : null;
    }

    /** How often {@link #pageChanges} was asked, on the page's thread. */
    public int changesBuilt() {
        return changesBuilt;
    }

    @Override
    public String pageAssets() {
        return "notes/";
    }
}
