package io.observatory.health;

import com.google.common.math.LongMath;
import java.time.Duration;

/**
 * A passive health policy (a section of {@code observatory.passive}): judges the call outcomes balancers report for one
 * outbound. Implementations are pure: an immutable state per outbound goes in with the evidence and time, a new state
 * comes out; time is a {@link System#nanoTime()}-style reading passed in by the caller.
 *
 * @param <S> the policy's per-outbound state
 */
public sealed interface PassivePolicy<S extends PassivePolicy.PassiveState>
        permits ConsecutiveFailuresPolicy, TransportFailureRatePolicy {

    /** The state of one outbound under a passive policy. */
    interface PassiveState {

        /** The passive health state. */
        HealthState state();

        /** When the state became UNHEALTHY, in {@link System#nanoTime()} units; meaningful only while UNHEALTHY. */
        long unhealthySinceNanos();

        /** Calls in the detection window; 0 for a policy without a window. */
        default int windowCalls() {
            return 0;
        }

        /** Failures counted in the detection window; 0 for a policy without a window. */
        default int windowFailures() {
            return 0;
        }

        /** The current run of failed calls; 0 for a policy that does not count runs. */
        default int consecutiveFailures() {
            return 0;
        }
    }

    /** The policy's section in configuration, e.g. {@code consecutive-failures}. */
    String name();

    /** The state of an outbound no call was reported for. */
    S initial();

    /**
     * The state after one more reported call, first applying {@link #advance} up to {@code nowNanos}.
     *
     * @param previous the state before the call; {@link #initial()} for a new outbound
     * @param outcome  how the call ended
     * @param nowNanos when the call ended, in {@link System#nanoTime()} units
     */
    S next(S previous, CallOutcome outcome, long nowNanos);

    /**
     * The state once time has reached {@code nowNanos} without a new call (reactivation, window expiry).
     *
     * @return {@code previous} itself when nothing changes
     */
    S advance(S previous, long nowNanos);

    /**
     * The earliest reading at which {@link #advance} changes {@code state} without a new call (a bucket leaving the
     * window, a reactivation), so that a caller holding many states advances only those that are due; at that
     * reading or later it does, before it does not.
     *
     * @return {@link Long#MAX_VALUE} when time alone never changes it
     */
    long nextChangeNanos(S state);

    /**
     * One line on the evidence behind {@code state}, for the reason of a change, e.g.
     * {@code 4/12 calls in the 1m0s window failed in transport (limit 0.3, minimal total count 10)}.
     */
    String describe(S state);

    /** How long an UNHEALTHY state lasts before it returns to UNKNOWN; exactly at the period counts as passed. */
    Duration effectiveReactivationPeriod();

    /**
     * The reading at which {@code state} returns from UNHEALTHY to UNKNOWN.
     *
     * @return {@link Long#MAX_VALUE} when it is not UNHEALTHY
     */
    default long reactivationNanos(S state) {
        return state.state() == HealthState.UNHEALTHY
                ? LongMath.saturatedAdd(
                        state.unhealthySinceNanos(),
                        effectiveReactivationPeriod().toNanos())
                : Long.MAX_VALUE;
    }
}
