package io.observatory.probe;

import io.observatory.testing.Configs;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** What a probe sends: Chrome's navigation headers with {@code observatory.probe.headers} folded in. */
class ProbeHeadersTest {

    private static Map<String, String> sent(String... properties) {
        return ProbeHeaders.of(Configs.of(properties).probe().headers());
    }

    @Test
    void ofWhenNothingConfiguredThenChromeNavigationHeadersInChromesOrderWithoutAcceptEncoding() {
        assertThat(sent().keySet()).containsExactly("sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform",
                "Upgrade-Insecure-Requests", "User-Agent", "Accept", "Sec-Fetch-Site", "Sec-Fetch-Mode",
                "Sec-Fetch-User", "Sec-Fetch-Dest", "Accept-Language");
    }

    @Test
    void ofWhenHeaderOverriddenInOtherCaseThenReplacedInPlaceAndNewOnesLast() {
        Map<String, String> sent = sent("probe.headers.user-agent=observatory-test", "probe.headers.X-Probe=1");

        assertThat(sent.keySet()).containsExactly("sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform",
                "Upgrade-Insecure-Requests", "User-Agent", "Accept", "Sec-Fetch-Site", "Sec-Fetch-Mode",
                "Sec-Fetch-User", "Sec-Fetch-Dest", "Accept-Language", "X-Probe");
        assertThat(sent).containsEntry("User-Agent", "observatory-test").containsEntry("X-Probe", "1");
    }

    @Test
    void ofWhenHeaderEmptyThenNotSent() {
        assertThat(sent("probe.headers.SEC-CH-UA=")).doesNotContainKey("sec-ch-ua").hasSize(10);
    }

    @Test
    void navigationWhenReadThenClientHintsNameTheUserAgentsChromeVersion() {
        Matcher userAgent = Pattern.compile("Mozilla/5\\.0 \\(Windows NT 10\\.0; Win64; x64\\) AppleWebKit/537\\.36 "
                + "\\(KHTML, like Gecko\\) Chrome/(\\d+)\\.0\\.0\\.0 Safari/537\\.36")
                .matcher(ProbeHeaders.NAVIGATION.get("User-Agent"));
        assertThat(userAgent.matches()).isTrue();
        String major = userAgent.group(1);

        assertThat(ProbeHeaders.NAVIGATION.get("sec-ch-ua"))
                .contains("\"Chromium\";v=\"" + major + "\"", "\"Google Chrome\";v=\"" + major + "\"");
    }
}
