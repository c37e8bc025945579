package io.observatory.mesh.view;

import io.observatory.management.PartView;
import io.observatory.mesh.hub.MeshView;
import io.observatory.snapshot.SnapshotPart;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The mesh as people see it: {@code mesh} in {@code /actuator/observatory} on a hub ({@link MeshJson}), and the status
 * page's mesh panel ({@link MeshPage}: servers, routes, the witness × entry point matrix), sent at most once a second:
 * whole first, then what changed ({@link MeshPageChanges}).
 */
@Component
final class MeshPartView implements PartView<MeshView, MeshPage> {

    @Override
    public SnapshotPart<MeshView> part() {
        return MeshView.PART;
    }

    /** The servers, witnesses and routes; left out on an instance without a fleet. */
    @Override
    public @Nullable Object endpointJson(MeshView view) {
        return view.fleet().servers().isEmpty() ? null : MeshJson.of(view);
    }

    /** The page's view; empty lists on an instance that is no hub, which the panel hides. */
    @Override
    public MeshPage pageJson(MeshView view, Instant now) {
        return MeshPage.of(view, now);
    }

    /** What changed ({@link MeshPageChanges}), or {@code null} when the fleet changed and the page is sent whole. */
    @Override
    public @Nullable Object pageChanges(MeshPage before, MeshPage after) {
        return MeshPageChanges.of(before, after);
    }

    /** Server {@code key}'s card ({@link MeshCard}), or {@code null} when the fleet has no such server. */
    @Override
    public @Nullable Object pageDetail(MeshView view, String key, Instant now) {
        return MeshCard.of(view, key);
    }

    @Override
    public String pageAssets() {
        return "io/observatory/mesh/view/panel/";
    }
}
