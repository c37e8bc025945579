package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ProbeSettingsTest {

    @Test
    void defaultHeadersWhenReadThenChromeNavigationOrderWithoutAcceptEncoding() {
        assertThat(ProbeSettings.DEFAULT_HEADERS.keySet()).containsExactly("sec-ch-ua", "sec-ch-ua-mobile",
                "sec-ch-ua-platform", "Upgrade-Insecure-Requests", "User-Agent", "Accept", "Sec-Fetch-Site",
                "Sec-Fetch-Mode", "Sec-Fetch-User", "Sec-Fetch-Dest", "Accept-Language");
        assertThat(ProbeSettings.DEFAULT_HEADERS)
                .containsEntry("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
                        + "image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7")
                .containsEntry("Accept-Language", "en-US,en;q=0.9")
                .containsEntry("sec-ch-ua-mobile", "?0")
                .containsEntry("sec-ch-ua-platform", "\"Windows\"")
                .containsEntry("Sec-Fetch-Site", "none")
                .containsEntry("Sec-Fetch-Mode", "navigate")
                .containsEntry("Sec-Fetch-User", "?1")
                .containsEntry("Sec-Fetch-Dest", "document")
                .containsEntry("Upgrade-Insecure-Requests", "1");
    }

    @Test
    void defaultHeadersWhenReadThenClientHintsNameTheUserAgentsChromeVersion() {
        Matcher userAgent = Pattern.compile("Mozilla/5\\.0 \\(Windows NT 10\\.0; Win64; x64\\) AppleWebKit/537\\.36 "
                + "\\(KHTML, like Gecko\\) Chrome/(\\d+)\\.0\\.0\\.0 Safari/537\\.36")
                .matcher(ProbeSettings.DEFAULT_HEADERS.get("User-Agent"));
        assertThat(userAgent.matches()).isTrue();
        String major = userAgent.group(1);

        assertThat(ProbeSettings.DEFAULT_HEADERS.get("sec-ch-ua"))
                .contains("\"Chromium\";v=\"" + major + "\"", "\"Google Chrome\";v=\"" + major + "\"");
    }
}
