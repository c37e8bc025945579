package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AvailabilityPolicyTest {

    /** An outbound as the policy sees it: a tag and its combined verdict. */
    private record Outbound(String tag, HealthState verdict) {}

    /** The policy named as in the table: {@code HEALTHY_AND_UNKNOWN}, or {@code HEALTHY_OR_PANIC} with a threshold. */
    private static AvailabilityPolicy policy(String name, int threshold) {
        return name.equals("HEALTHY_AND_UNKNOWN")
                ? AvailabilityPolicy.HEALTHY_AND_UNKNOWN
                : new AvailabilityPolicy.HealthyOrPanic(threshold);
    }

    /**
     * Verdicts as a string, one letter per outbound tagged {@code o0, o1, ...}: {@code H}, {@code U}, {@code X},
     * {@code D} (degraded).
     */
    private static List<Outbound> selection(String verdicts) {
        List<Outbound> outbounds = new ArrayList<>();
        for (int i = 0; i < verdicts.length(); i++) {
            HealthState verdict = switch (verdicts.charAt(i)) {
                case 'H' -> HealthState.HEALTHY;
                case 'U' -> HealthState.UNKNOWN;
                case 'X' -> HealthState.UNHEALTHY;
                case 'D' -> HealthState.DEGRADED;
                default -> throw new IllegalArgumentException(verdicts);
            };
            outbounds.add(new Outbound("o" + i, verdict));
        }
        return outbounds;
    }

    private static String tags(Availability<Outbound> availability) {
        return String.join(
                ",", availability.usable().stream().map(Outbound::tag).toList());
    }

    @ParameterizedTest(name = "{0} {1} with threshold {2}% -> [{3}], panic {4}")
    @CsvSource({
        // HEALTHY_AND_UNKNOWN excludes only UNHEALTHY and never panics, even when nothing is left
        "HEALTHY_AND_UNKNOWN, HUX,  50,  'o0,o1',       false",
        "HEALTHY_AND_UNKNOWN, XXX,  50,  '',            false",
        "HEALTHY_AND_UNKNOWN, HXXX, 100, 'o0',          false",
        // HEALTHY_OR_PANIC, default threshold 50%: exactly 50% usable is not panic, below is
        "HEALTHY_OR_PANIC,    HUX,  50,  'o0,o1',       false",
        "HEALTHY_OR_PANIC,    HUXX, 50,  'o0,o1',       false",
        "HEALTHY_OR_PANIC,    HX,   50,  'o0',          false",
        "HEALTHY_OR_PANIC,    HXX,  50,  'o0,o1,o2',    true",
        "HEALTHY_OR_PANIC,    UXXX, 50,  'o0,o1,o2,o3', true",
        // all unhealthy: panic returns every outbound (YARP), whatever the threshold
        "HEALTHY_OR_PANIC,    XXX,  50,  'o0,o1,o2',    true",
        "HEALTHY_OR_PANIC,    X,    0,   'o0',          true",
        // threshold 0 keeps only YARP's rule
        "HEALTHY_OR_PANIC,    HXXX, 0,   'o0',          false",
        // threshold boundary: 1 of 3 is 33.3%
        "HEALTHY_OR_PANIC,    HXX,  33,  'o0',          false",
        "HEALTHY_OR_PANIC,    HXX,  34,  'o0,o1,o2',    true",
        // threshold 100: any unhealthy outbound is panic
        "HEALTHY_OR_PANIC,    HHH,  100, 'o0,o1,o2',    false",
        "HEALTHY_OR_PANIC,    HHX,  100, 'o0,o1,o2',    true",
        // nothing unhealthy: unchanged
        "HEALTHY_OR_PANIC,    UUU,  50,  'o0,o1,o2',    false",
        // degraded (Envoy): used only when no healthy or unknown one is left, but counted towards the threshold
        "HEALTHY_AND_UNKNOWN, HDX,  50,  'o0',          false",
        "HEALTHY_AND_UNKNOWN, DDX,  50,  'o0,o1',       false",
        "HEALTHY_OR_PANIC,    UDD,  50,  'o0',          false",
        "HEALTHY_OR_PANIC,    HDDX, 75,  'o0',          false",
        "HEALTHY_OR_PANIC,    DXX,  50,  'o0,o1,o2',    true",
        "HEALTHY_OR_PANIC,    DDX,  50,  'o0,o1',       false",
    })
    void selectReturnsTheUsableOutboundsAndThePanicFlag(
            String policy, String verdicts, int threshold, String usable, boolean panic) {
        Availability<Outbound> availability = policy(policy, threshold).select(selection(verdicts), Outbound::verdict);

        assertThat(tags(availability)).isEqualTo(usable);
        assertThat(availability.panic()).isEqualTo(panic);
    }

    @Test
    void selectKeepsTheVerdictsOfThePanicSet() {
        Availability<Outbound> availability =
                new AvailabilityPolicy.HealthyOrPanic(50).select(selection("XX"), Outbound::verdict);

        assertThat(availability.usable())
                .containsExactly(new Outbound("o0", HealthState.UNHEALTHY), new Outbound("o1", HealthState.UNHEALTHY));
    }

    @ParameterizedTest
    @ValueSource(strings = {"HEALTHY_AND_UNKNOWN", "HEALTHY_OR_PANIC"})
    void selectWhenSelectionEmptyThenEmptyWithoutPanic(String policy) {
        assertThat(policy(policy, 50).select(List.<Outbound>of(), Outbound::verdict))
                .isEqualTo(new Availability<Outbound>(List.of(), false));
    }
}
