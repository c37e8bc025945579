package io.observatory.management;

import io.observatory.snapshot.SnapshotPart;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * How a capability's part of the observation is shown to people: as a member of the {@code observatory} endpoint's
 * JSON ({@code GET /actuator/observatory}) and as a panel of the status page. Register one bean per part; the core
 * and the page read every part from the same observation as the outbounds, so what they show belongs together.
 *
 * <p>The panel is an ES module served at {@code /status/assets/panels/<name>/panel.js}, with its style at
 * {@code panel.css} beside it: it exports {@code render(section, data, helpers)}, which draws the data of each
 * {@code <name>} event of the page's live stream into the {@code <section>} the page gives it: {@link #pageJson}
 * whole first, then, where the part says how ({@link #pageChanges}), only what changed, which the panel applies to
 * the data it holds; {@code helpers} has the page's element builders and {@code detail(key)}, which fetches
 * {@link #pageDetail}. {@code GET /status/api/<name>} serves the data whole.
 *
 * @param <T> the part's value type
 * @param <D> the panel's data, immutable: what {@link #pageJson} builds and {@link #pageChanges} compares
 */
public interface PartView<T, D> {

    /** The part shown; its name names the JSON member, the panel, its data path and its events. */
    SnapshotPart<T> part();

    /** The part's member of the endpoint's JSON, or {@code null} to leave it out (nothing to show). */
    @Nullable
    Object endpointJson(T value);

    /**
     * The panel's data: {@code GET /status/api/<name>} and the whole data of a {@code <name>} event of the live stream
     * (its first, and each one that {@link #pageChanges} does not describe). Built once per value for every stream;
     * the panel decides what of it to show (nothing, when its capability is idle here).
     *
     * @param now the wall clock when it is built
     */
    D pageJson(T value, Instant now);

    /**
     * What changed in the panel's data from {@code before} to {@code after}, both built by {@link #pageJson} and the
     * first the data the stream last sent: the data of a {@code <name>} event that the panel applies to the data it
     * holds to hold {@code after}. Built once per pair for every stream, so it costs the comparison of the two, and
     * what a single change of the part sends does not grow with the part. The panel tells changes from whole data by
     * their content (the mesh's carry {@code "changes": true}), so the two must differ. The default sends every event
     * whole.
     *
     * @return the changes, or {@code null} to send {@code after} whole (e.g. when what it shows was replaced)
     */
    default @Nullable Object pageChanges(D before, D after) {
        return null;
    }

    /**
     * The classpath directory of the panel's {@code panel.js} and {@code panel.css}, ending in {@code /}, e.g.
     * {@code io/observatory/mesh/view/panel/}.
     */
    String pageAssets();

    /**
     * One item of the panel's data in detail, {@code GET /status/api/<name>/<key>}, e.g. a mesh server's card; fetched
     * when a person opens it, so it may hold what the panel's events leave out.
     *
     * @param key the item, e.g. a server's name
     * @param now the wall clock when it is built
     * @return the item's JSON, or {@code null} when the part has no such item (the page answers 404)
     */
    default @Nullable Object pageDetail(T value, String key, Instant now) {
        return null;
    }

    /** The least time between two of the panel's events on one stream: data that can be large is sent seldom. */
    default Duration pageInterval() {
        return Duration.ofSeconds(1);
    }
}
