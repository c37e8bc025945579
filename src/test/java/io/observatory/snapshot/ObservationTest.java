package io.observatory.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The tag-prefix ranges of {@link Observation#matching}, against the answer a scan of every tag gives. */
class ObservationTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final List<String> TAGS = List.of(
            "b",
            "a",
            "ab",
            "abc",
            "b\uffff",
            "b\uffffz",
            "\u00e9t\u00e9",
            "\ud83d\ude80rocket",
            "proxy_1",
            "proxy_10",
            "proxy_2",
            "proxyx");

    private static Observation observation(List<String> tags) {
        Map<String, OutboundHealth> outbounds = new LinkedHashMap<>();
        for (String tag : tags) {
            outbounds.put(
                    tag, new OutboundHealth(tag, null, PassiveView.NONE, List.of(), HealthState.UNKNOWN, NOW, "added"));
        }
        return new Observation(outbounds, AvailabilityPolicy.HEALTHY_AND_UNKNOWN, OptionalLong.empty());
    }

    static Stream<Arguments> selections() {
        return Stream.of(
                Arguments.of(
                        "no prefix selects every outbound",
                        List.of(),
                        List.of(
                                "a",
                                "ab",
                                "abc",
                                "b",
                                "b\uffff",
                                "b\uffffz",
                                "proxy_1",
                                "proxy_10",
                                "proxy_2",
                                "proxyx",
                                "\u00e9t\u00e9",
                                "\ud83d\ude80rocket")),
                Arguments.of("a whole tag is its own prefix", List.of("abc"), List.of("abc")),
                Arguments.of(
                        "a prefix covered by a wider one adds nothing",
                        List.of("ab", "a", "abc"),
                        List.of("a", "ab", "abc")),
                Arguments.of(
                        "ranges in tag order whatever the request's order",
                        List.of("proxy_2", "b", "proxy_1"),
                        List.of("b", "b\uffff", "b\uffffz", "proxy_1", "proxy_10", "proxy_2")),
                Arguments.of(
                        "the highest character ends no range early",
                        List.of("b\uffff"),
                        List.of("b\uffff", "b\uffffz")),
                Arguments.of("a prefix after every tag", List.of("\ud83d\ude80rocket!"), List.of()),
                Arguments.of("a prefix before every tag", List.of("0"), List.of()),
                Arguments.of("a prefix between tags", List.of("proxy_3"), List.of()),
                Arguments.of(
                        "non-ASCII prefixes",
                        List.of("\u00e9", "\ud83d"),
                        List.of("\u00e9t\u00e9", "\ud83d\ude80rocket")),
                Arguments.of("the same prefix twice", List.of("proxy_1", "proxy_1"), List.of("proxy_1", "proxy_10")));
    }

    @Test
    void withWhenEntriesChangedThenThoseReplacedInPlaceAndAStrangerRefused() {
        Observation observation = observation(List.of("b", "a", "c"));
        OutboundHealth changed =
                new OutboundHealth("b", null, PassiveView.NONE, List.of(), HealthState.UNHEALTHY, NOW, "changed");

        Observation next = observation.with(List.of(changed), OptionalLong.of(7));

        assertThat(next.all()).extracting(OutboundHealth::tag).containsExactly("a", "b", "c");
        assertThat(next.get("b")).containsSame(changed);
        assertThat(next.get("a").orElseThrow()).isSameAs(observation.get("a").orElseThrow());
        assertThat(observation.get("b").orElseThrow().verdict())
                .as("the old snapshot is unchanged")
                .isEqualTo(HealthState.UNKNOWN);
        assertThat(next.observedAtNanos()).hasValue(7);
        assertThat(next.matching(List.of("b"))).containsExactly(changed);
        assertThatThrownBy(() -> observation.with(
                        List.of(new OutboundHealth(
                                "z", null, PassiveView.NONE, List.of(), HealthState.UNKNOWN, NOW, "added")),
                        OptionalLong.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("outbound z is not in the observation");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selections")
    void matchingWhenPrefixesGivenThenTheOutboundsAScanSelects(
            String name, List<String> prefixes, List<String> expected) {
        Observation observation = observation(TAGS);

        List<String> matched =
                observation.matching(prefixes).stream().map(OutboundHealth::tag).toList();

        assertThat(matched).isEqualTo(expected);
        assertThat(matched)
                .isEqualTo(observation.all().stream()
                        .map(OutboundHealth::tag)
                        .filter(tag -> prefixes.isEmpty() || prefixes.stream().anyMatch(tag::startsWith))
                        .toList());
    }
}
