package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.health.HealthState;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.util.UriComponentsBuilder;

class PageQueryTest {

    private static MultiValueMap<String, String> parameters(String query) {
        return new LinkedMultiValueMap<>(UriComponentsBuilder.fromUriString("/status/api/outbounds?" + query)
                .build()
                .getQueryParams());
    }

    @Test
    void fromWhenNothingGivenThenEveryOutboundFromTheFirstHundredAtATime() {
        PageQuery query = PageQuery.from(parameters(""));

        assertThat(query).isEqualTo(new PageQuery("", EnumSet.allOf(HealthState.class), 0, PageQuery.DEFAULT_LIMIT));
        assertThat(query.prefixes()).isEmpty();
    }

    @Test
    void fromWhenEverythingGivenThenThePrefixVerdictsAndWindow() {
        PageQuery query = PageQuery.from(parameters("prefix=proxy_de&verdict=unhealthy,degraded&offset=200&limit=500"));

        assertThat(query)
                .isEqualTo(
                        new PageQuery("proxy_de", EnumSet.of(HealthState.UNHEALTHY, HealthState.DEGRADED), 200, 500));
        assertThat(query.prefixes()).containsExactly("proxy_de");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "limit=0          | limit: 0 (expected: 1-500)",
                "limit=501        | limit: 501 (expected: 1-500)",
                "offset=-1        | offset: -1 (expected: >= 0)",
                "limit=ten        | limit: \"ten\" (expected: a whole number, 1-500)",
                "verdict=sick     | verdict: \"sick\" (expected: a comma-separated list of healthy, degraded, unhealthy or"
                        + " unknown)",
                "verdict=healthy, | verdict: \"\" (expected: a comma-separated list of healthy, degraded, unhealthy or"
                        + " unknown)"
            })
    void fromWhenAValueIsOutOfRangeThenTheOneLineReason(String query, String reason) {
        assertThatThrownBy(() -> PageQuery.from(parameters(query)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(reason);
    }

    @Test
    void fromWhenThePrefixIsLongerThanATagPrefixMayBeThenRefused() {
        assertThatThrownBy(() -> PageQuery.from(parameters("prefix=" + "p".repeat(257))))
                .hasMessage("prefix: 257 characters (expected: at most 256)");
    }
}
