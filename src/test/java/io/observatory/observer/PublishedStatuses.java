package io.observatory.observer;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.probe.ProbeResult;
import io.observatory.status.OutboundStatus;
import io.observatory.testing.FakeScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What an observer under test hands on: its latest statuses, sorted by tag as the observation shows them, built from
 * the changes it publishes, and every probe result it recorded. Asserts that both arrive on the writer and that each
 * publication carries only real changes (something changed, no status equal to the one published before, no tag gone
 * that was not there).
 */
final class PublishedStatuses {

    private final FakeScheduler writer;
    private final List<ProbeResult> recorded = new ArrayList<>();
    private final Map<String, OutboundStatus> latest = new TreeMap<>();
    private int publications;

    PublishedStatuses(FakeScheduler writer) {
        this.writer = writer;
    }

    /** The context an observer runs in with this recorder, {@code prober} and {@code outbounds}. */
    ObserverContext context(ScriptedProber prober, Supplier<List<io.observatory.config.Outbound>> outbounds) {
        return new ObserverContext(
                writer,
                prober,
                outbounds,
                result -> {
                    onWriter();
                    recorded.add(result);
                },
                (changed, gone) -> {
                    onWriter();
                    assertThat(changed.size() + gone.size())
                            .as("changes in a publication")
                            .isPositive();
                    gone.forEach(tag -> assertThat(latest.remove(tag))
                            .as("gone %s was published", tag)
                            .isNotNull());
                    changed.forEach(
                            status -> assertThat(status).as("a change").isNotEqualTo(latest.put(status.tag(), status)));
                    publications++;
                });
    }

    /** Seeds what the sink holds before the observer starts: a predecessor's statuses, as the runtime keeps them. */
    void holding(List<OutboundStatus> carriedOver) {
        carriedOver.forEach(status -> latest.put(status.tag(), status));
    }

    private void onWriter() {
        if (!writer.inSchedulerThread()) {
            throw new AssertionError("observer output off the writer");
        }
    }

    /** The latest statuses, sorted by tag; empty before the first publication. */
    List<OutboundStatus> current() {
        return List.copyOf(latest.values());
    }

    /** The latest status of {@code tag}. */
    OutboundStatus status(String tag) {
        return Objects.requireNonNull(latest.get(tag), tag);
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
