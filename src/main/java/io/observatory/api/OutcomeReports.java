package io.observatory.api;

import static io.observatory.api.TagPrefixes.quote;

import com.google.protobuf.Timestamp;
import io.observatory.api.v1.Outcome;
import io.observatory.api.v1.TransportFailure;
import io.observatory.health.CallOutcome;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.PassiveReport;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Checks the items of a {@code ReportOutcomes} request and turns the good ones into {@link PassiveReport}s. Pure;
 * the time window is relative to the {@code now} the caller passes.
 */
final class OutcomeReports {

    /** Most outcomes one ReportOutcomes call may carry. */
    static final int MAX_OUTCOMES = 10_000;

    /** How far before the server's clock a reported call may have ended: 5 minutes. */
    static final Duration MAX_OUTCOME_AGE = Duration.ofMinutes(5);

    /** How far after the server's clock a reported call may have ended (client clock skew): 1 minute. */
    static final Duration MAX_OUTCOME_LEAD = Duration.ofMinutes(1);

    /** Longest call a report may describe: 24 hours. */
    static final Duration MAX_LATENCY = Duration.ofHours(24);

    /** protobuf's Timestamp range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, in unix seconds. */
    private static final long MIN_TIMESTAMP_SECONDS = -62_135_596_800L;

    private static final long MAX_TIMESTAMP_SECONDS = 253_402_300_799L;

    private static final String OUTCOMES_EXPECTED =
            "OUTCOME_SUCCESS, OUTCOME_TRANSPORT_FAILURE or OUTCOME_APPLICATION_FAILURE";
    private static final String TRANSPORT_FAILURES_EXPECTED = "TRANSPORT_FAILURE_UNSPECIFIED, "
            + "TRANSPORT_FAILURE_CONNECT, TRANSPORT_FAILURE_TIMEOUT or TRANSPORT_FAILURE_RESET";

    private OutcomeReports() {}

    /** Why {@code item} is refused, or {@code null} when it is fine. */
    static @Nullable String problem(io.observatory.api.v1.CallOutcome item, Observation observation, Instant now) {
        String tag = item.getTag();
        if (tag.isEmpty()) {
            return "tag: \"\" (expected: a configured outbound tag)";
        }
        if (TagPrefixes.hasControlCharacters(tag)) {
            return "tag: " + quote(tag) + " (expected: a configured outbound tag, without control characters)";
        }
        if (observation.get(tag).isEmpty()) {
            return "unknown outbound tag " + quote(tag);
        }
        Outcome outcome = item.getOutcome();
        if (outcome == Outcome.OUTCOME_UNSPECIFIED || outcome == Outcome.UNRECOGNIZED) {
            return "outcome: " + (outcome == Outcome.UNRECOGNIZED ? item.getOutcomeValue() : outcome.name())
                    + " (expected: " + OUTCOMES_EXPECTED + ")";
        }
        TransportFailure failure = item.getTransportFailure();
        if (failure == TransportFailure.UNRECOGNIZED) {
            return "transport_failure: " + item.getTransportFailureValue() + " (expected: "
                    + TRANSPORT_FAILURES_EXPECTED + ")";
        }
        if (failure != TransportFailure.TRANSPORT_FAILURE_UNSPECIFIED && outcome != Outcome.OUTCOME_TRANSPORT_FAILURE) {
            return "transport_failure: " + failure.name()
                    + " (expected: TRANSPORT_FAILURE_UNSPECIFIED unless outcome is OUTCOME_TRANSPORT_FAILURE)";
        }
        if (item.getLatencyNanos() < 0 || item.getLatencyNanos() > MAX_LATENCY.toNanos()) {
            return "latency_nanos: " + item.getLatencyNanos() + " (expected: 0-" + MAX_LATENCY.toNanos()
                    + ", 24 hours)";
        }
        return item.hasTime() ? timeProblem(item.getTime(), now) : null;
    }

    // Each field of the timestamp is checked on its own: that is the point here.
    @SuppressWarnings("ProtoTimestampGetSecondsGetNano")
    private static @Nullable String timeProblem(Timestamp time, Instant now) {
        if (time.getSeconds() < MIN_TIMESTAMP_SECONDS || time.getSeconds() > MAX_TIMESTAMP_SECONDS) {
            return "time: seconds " + time.getSeconds() + " (expected: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z)";
        }
        if (time.getNanos() < 0 || time.getNanos() > 999_999_999) {
            return "time: nanos " + time.getNanos() + " (expected: 0-999999999)";
        }
        Instant ended = instant(time);
        if (ended.isBefore(now.minus(MAX_OUTCOME_AGE))) {
            return "time: " + ended + " (expected: at most 5 minutes before the server's clock, " + now + ")";
        }
        if (ended.isAfter(now.plus(MAX_OUTCOME_LEAD))) {
            return "time: " + ended + " (expected: at most 1 minute after the server's clock, " + now + ")";
        }
        return null;
    }

    /** A checked item as the updater takes it: the server's now for an unset time or one ahead of the server. */
    static PassiveReport report(io.observatory.api.v1.CallOutcome item, Instant now) {
        Instant ended = item.hasTime() ? instant(item.getTime()) : now;
        return new PassiveReport(
                item.getTag(), outcome(item.getOutcome()), item.getLatencyNanos(), ended.isAfter(now) ? now : ended);
    }

    private static CallOutcome outcome(Outcome outcome) {
        return switch (outcome) {
            case OUTCOME_SUCCESS -> CallOutcome.SUCCESS;
            case OUTCOME_TRANSPORT_FAILURE -> CallOutcome.TRANSPORT_FAILURE;
            case OUTCOME_APPLICATION_FAILURE -> CallOutcome.APPLICATION_FAILURE;
            case OUTCOME_UNSPECIFIED, UNRECOGNIZED ->
                throw new IllegalArgumentException("unchecked outcome " + outcome);
        };
    }

    private static Instant instant(Timestamp time) {
        return Instant.ofEpochSecond(time.getSeconds(), time.getNanos());
    }
}
