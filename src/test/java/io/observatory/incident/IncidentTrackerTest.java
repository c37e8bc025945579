package io.observatory.incident;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Splitter;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.snapshot.Condition;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.snapshot.ConditionSource;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.SnapshotPart;
import io.observatory.testing.FakeScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The tracker on fake time, with a capability part whose conditions the test sets: what opens, what changes kind,
 * what resolves, and what a restart's open incidents become while the source is not settled and after.
 */
class IncidentTrackerTest {

    /** A part whose value lists the bad subjects as {@code subject=KIND}, comma-separated. */
    private static final SnapshotPart<String> PART = new SnapshotPart<>("fleet", String.class, "");

    private static final Instant START = Instant.parse("2026-12-03T10:00:00Z");

    private final FakeScheduler writer = new FakeScheduler();
    private final List<String> transitions = new ArrayList<>();
    private boolean settled = true;

    private final ConditionSource<String> source = new ConditionSource<>() {
        @Override
        public SnapshotPart<String> part() {
            return PART;
        }

        @Override
        public List<Condition> conditions(String value, Instant now) {
            List<Condition> conditions = new ArrayList<>();
            for (String bad : Splitter.on(',').omitEmptyStrings().split(value)) {
                List<String> subjectAndKind = Splitter.on('=').splitToList(bad);
                conditions.add(new Condition(
                        subjectAndKind.get(0), subjectAndKind.get(1), Severity.CRITICAL, "why", Map.of(), List.of()));
            }
            return conditions;
        }

        @Override
        public boolean settled(String value, Instant now) {
            return settled;
        }
    };

    private final IncidentTracker tracker = new IncidentTracker(
            writer,
            Clock.fixed(START, ZoneOffset.UTC),
            false,
            List.of(source),
            transition -> transitions.add(
                    transition instanceof Transition.Open open
                            ? "open " + open.subject() + " " + open.condition().kind()
                            : "resolve " + transition.subject() + " " + ((Transition.Resolve) transition).kind() + ": "
                                    + ((Transition.Resolve) transition).resolution()));

    @Test
    void updateWhenASubjectTurnsBadChangesKindAndHealsThenOpenOpenAndResolve() {
        tracker.start(observation(""));

        tracker.update(update("server/s4=UNREACHABLE_FROM_SERVERS"));
        tracker.update(update("server/s4=UNREACHABLE_FROM_SERVERS"));
        tracker.update(update("server/s4=BLOCKED"));
        tracker.update(update(""));

        assertThat(transitions)
                .containsExactly(
                        "open server/s4 UNREACHABLE_FROM_SERVERS",
                        "open server/s4 BLOCKED",
                        "resolve server/s4 BLOCKED: recovered");
    }

    @Test
    void restoreWhenTheConditionStillHoldsThenNoTransition() {
        tracker.start(observation("server/s4=BLOCKED"));
        transitions.clear();

        tracker.restore(List.of(incident("server/s4", "BLOCKED")));
        tracker.update(update("server/s4=BLOCKED"));

        assertThat(transitions).isEmpty();
    }

    @Test
    void restoreWhileTheSourceIsNotSettledThenKeptOpenUntilItSettles() {
        settled = false;
        tracker.start(observation(""));

        tracker.restore(List.of(incident("server/s4", "BLOCKED")));
        writer.advance(Duration.ofSeconds(5));
        assertThat(transitions).as("nothing known yet: still open").isEmpty();

        settled = true;
        writer.advance(IncidentTracker.SETTLE_CHECK);

        assertThat(transitions).containsExactly("resolve server/s4 BLOCKED: recovered");
    }

    @Test
    void restoreWhenItsSourceIsNoLongerHereThenResolved() {
        tracker.start(observation(""));

        tracker.restore(List.of(new Incident(
                "id", "route/eu", "mesh", "PANIC", Severity.CRITICAL, "why", Map.of(), List.of(), START, null, "")));

        assertThat(transitions).containsExactly("resolve route/eu PANIC: no longer judged here");
    }

    private static Incident incident(String subject, String kind) {
        return new Incident(
                "id-" + subject,
                subject,
                "fleet",
                kind,
                Severity.CRITICAL,
                "why",
                Map.of(),
                List.of(),
                START,
                null,
                "");
    }

    private static Observation observation(String value) {
        return new Observation(Map.of(), AvailabilityPolicy.HEALTHY_AND_UNKNOWN, OptionalLong.empty())
                .withPart(PART, value);
    }

    private static ObservationUpdate update(String value) {
        return new ObservationUpdate(observation(value), List.of());
    }
}
