package io.observatory.testing;

import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Hands an observer's whole status set to the updater as the observer's publisher would: what changed, what went. */
public final class ObserverOutput {

    private ObserverOutput() {}

    /**
     * Publishes {@code statuses} as the observer's complete set: each as a change, and every outbound the updater has
     * a probe status for but {@code statuses} lacks as gone. Writer only.
     */
    public static void publish(ObservationUpdater updater, List<OutboundStatus> statuses) {
        Set<String> present = statuses.stream().map(OutboundStatus::tag).collect(Collectors.toSet());
        List<String> gone = updater.store().current().all().stream()
                .filter(OutboundHealth::probed)
                .map(OutboundHealth::tag)
                .filter(tag -> !present.contains(tag))
                .toList();
        updater.changed(statuses, gone);
    }
}
