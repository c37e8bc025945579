package io.observatory.page;

import io.observatory.management.PartView;
import io.observatory.snapshot.Observation;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.http.codec.ServerSentEvent;
import tools.jackson.databind.json.JsonMapper;

/**
 * One capability part's panel events as every status page stream sends them ({@link PageStreams}); page thread only.
 * Its data is built once per value of the part, its whole JSON once per value that a stream sends whole, and the
 * changes to it ({@link PartView#pageChanges}) once per data a stream holds before it, so the streams that hold the
 * same data share one event and a stream that fell behind gets its own. It keeps the latest data, its JSON and the
 * changes to it, one entry per data the open streams hold; they go with the next value, or when no stream is open.
 *
 * @param <T> the part's value type
 * @param <D> the panel's data
 */
final class PanelEvents<T, D> {

    private final PartView<T, D> view;
    private final Clock clock;
    private final JsonMapper json;
    // The data of the latest value a stream took, its whole JSON once sent, and the event that takes the data of each
    // earlier value a stream held to it, by that data's serial.
    private @Nullable Built<D> last;
    private @Nullable String lastJson;
    private final Map<Long, String> toLast = new HashMap<>();
    private long serials;

    /**
     * The events of {@code view}'s panel.
     *
     * @param clock the wall clock its data is built at
     * @param json  writes its events' data
     */
    PanelEvents(PartView<T, D> view, Clock clock, JsonMapper json) {
        this.view = view;
        this.clock = clock;
        this.json = json;
    }

    /** Where a stream opened at {@code opened} (the page's ticker) stands with this panel: nothing sent yet. */
    Slot slot(long opened) {
        return new Slot() {
            // What the stream holds, null while the part was empty; and when it took it, on the page's ticker. An
            // event taken is sent (first of all, when the connection put it back) or the stream ends, so what it took
            // is what its client holds.
            private @Nullable Built<D> sent;
            private long sentAt = opened - view.pageInterval().toNanos();

            @Override
            public boolean due(Observation observation, long now) {
                Object value = observation.part(view.part());
                return value != (sent == null ? view.part().empty() : sent.value())
                        && now - sentAt >= view.pageInterval().toNanos();
            }

            @Override
            public ServerSentEvent<String> take(Observation observation, long now) {
                Built<D> after = built(observation.part(view.part()));
                String data = sent == null ? whole() : changesToLast(sent);
                sent = after;
                sentAt = now;
                return ServerSentEvent.builder(data).event(view.part().name()).build();
            }
        };
    }

    /** Drops what it keeps: no stream is open. */
    void forget() {
        last = null;
        lastJson = null;
        toLast.clear();
    }

    @SuppressWarnings("ReferenceEquality") // a part's value is replaced whole: another value, another reference
    private Built<D> built(T value) {
        Built<D> built = last;
        if (built == null || built.value() != value) {
            built = new Built<>(++serials, value, view.pageJson(value, clock.instant()));
            last = built;
            lastJson = null;
            toLast.clear();
        }
        return built;
    }

    /** The latest data whole, as JSON. */
    private String whole() {
        String whole = lastJson;
        if (whole == null) {
            whole = json.writeValueAsString(
                    Objects.requireNonNull(last, "built before sent").data());
            lastJson = whole;
        }
        return whole;
    }

    /** The event that takes a stream holding {@code before} to the latest data: its changes, else the whole. */
    private String changesToLast(Built<D> before) {
        D after = Objects.requireNonNull(last, "built before sent").data();
        return toLast.computeIfAbsent(before.serial(), serial -> {
            Object changes = view.pageChanges(before.data(), after);
            return changes == null ? whole() : json.writeValueAsString(changes);
        });
    }

    /** Where one stream stands with one panel; page thread. */
    interface Slot {

        /** Whether the part changed since the stream last sent it and its interval passed since. */
        boolean due(Observation observation, long now);

        /** The part's event for the stream: its changes since what the stream holds, or the whole data. */
        ServerSentEvent<String> take(Observation observation, long now);
    }

    /**
     * A part's panel data built from one value (compared by identity).
     *
     * @param serial names it among the data built for its part, in the order built
     */
    private record Built<D>(long serial, Object value, D data) {}
}
