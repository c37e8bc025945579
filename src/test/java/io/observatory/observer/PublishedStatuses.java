package io.observatory.observer;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.StatusSink;
import io.observatory.testing.FakeScheduler;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

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
                new Sink());
    }

    /** The sink: checks each publication and holds what it was handed. */
    private final class Sink implements StatusSink {

        @Override
        public void changed(Collection<OutboundStatus> changed, Collection<String> gone) {
            onWriter();
            assertThat(changed.size() + gone.size())
                    .as("changes in a publication")
                    .isPositive();
            gone.forEach(tag -> assertThat(latest.remove(tag))
                    .as("gone %s was published", tag)
                    .isNotNull());
            changed.forEach(status -> assertThat(status).as("a change").isNotEqualTo(latest.put(status.tag(), status)));
            publications++;
        }

        @Override
        public @Nullable OutboundStatus held(String tag) {
            return latest.get(tag);
        }

        @Override
        public List<OutboundStatus> held() {
            return List.copyOf(latest.values());
        }
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
