package io.observatory.observer;

import io.observatory.probe.ProbeResult;
import io.observatory.status.OutboundStatus;
import io.observatory.testing.FakeScheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * What an observer under test hands on: its latest statuses, sorted by tag as the observation shows them, and every
 * probe result it recorded. Asserts that both arrive on the writer.
 */
final class PublishedStatuses {

    private final FakeScheduler writer;
    private final List<ProbeResult> recorded = new ArrayList<>();
    private List<OutboundStatus> latest = List.of();
    private int publications;

    PublishedStatuses(FakeScheduler writer) {
        this.writer = writer;
    }

    /** The context an observer runs in with this recorder, {@code prober} and {@code outbounds}. */
    ObserverContext context(ScriptedProber prober, Supplier<List<io.observatory.config.Outbound>> outbounds) {
        return new ObserverContext(writer, prober, outbounds, result -> {
            onWriter();
            recorded.add(result);
        }, statuses -> {
            onWriter();
            latest = statuses.stream().sorted(Comparator.comparing(OutboundStatus::tag)).toList();
            publications++;
        });
    }

    private void onWriter() {
        if (!writer.inSchedulerThread()) {
            throw new AssertionError("observer output off the writer");
        }
    }

    /** The latest statuses, sorted by tag; empty before the first publication. */
    List<OutboundStatus> current() {
        return latest;
    }

    /** The latest status of {@code tag}. */
    OutboundStatus status(String tag) {
        return latest.stream().filter(status -> status.tag().equals(tag)).findFirst().orElseThrow();
    }

    /** How many times statuses were handed on. */
    int publications() {
        return publications;
    }

    /** The probe results recorded for metrics, in order. */
    List<ProbeResult> recorded() {
        return recorded;
    }
}
