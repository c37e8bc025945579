package io.observatory.mesh.witness;

import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.StatusSink;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A witness's statuses of the entry points it probes, by tag: its own, apart from the observation (a witness's view
 * of its neighbours is evidence for the hub, not a verdict of this instance). Writer only; one status per entry point.
 */
final class WitnessStatuses implements StatusSink {

    private final Map<String, OutboundStatus> statuses = new TreeMap<>();

    @Override
    public void changed(Collection<OutboundStatus> changed, Collection<String> gone) {
        gone.forEach(statuses::remove);
        changed.forEach(status -> statuses.put(status.tag(), status));
    }

    @Override
    public @Nullable OutboundStatus held(String tag) {
        return statuses.get(tag);
    }

    @Override
    public List<OutboundStatus> held() {
        return List.copyOf(statuses.values());
    }
}
