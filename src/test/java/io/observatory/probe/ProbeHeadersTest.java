package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.observatory.testing.Configs;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a probe announces: Xray's Chrome ({@code common/utils/browser.go}) with {@code observatory.probe.headers}
 * folded in, in the order of Go's {@code Request.write}.
 */
class ProbeHeadersTest {

    private static List<String> written(ProbeHeaders headers, String method, boolean close) {
        return written(
                headers,
                new ProbeHop(
                        URI.create("http://example.com/"), method, headers.host("example.com"), null, "example.com", 0),
                close);
    }

    private static List<String> written(ProbeHeaders headers, ProbeHop hop, boolean close) {
        HttpHeaders out = new DefaultHttpHeaders();
        out.add("stale", "from reactor-netty");
        headers.writeRequest(out, hop, close);
        return out.entries().stream()
                .map(entry -> entry.getKey() + ": " + entry.getValue())
                .toList();
    }

    private static List<String> names(List<String> lines) {
        return lines.stream().map(line -> line.substring(0, line.indexOf(':'))).toList();
    }

    private static ProbeHeaders configured(String... properties) {
        return ProbeHeaders.of(Configs.of(properties).probe().headers(), 149);
    }

    @ParameterizedTest(name = "Chrome {0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            # values printed by Xray's getGreasedChUa(version, "chrome") from browser.go at 2323273e
            144 | '"Not(A:Brand";v="8", "Chromium";v="144", "Google Chrome";v="144"'
            145 | '"Not:A-Brand";v="99", "Google Chrome";v="145", "Chromium";v="145"'
            146 | '"Chromium";v="146", "Not-A.Brand";v="24", "Google Chrome";v="146"'
            147 | '"Google Chrome";v="147", "Not.A/Brand";v="8", "Chromium";v="147"'
            148 | '"Chromium";v="148", "Google Chrome";v="148", "Not/A)Brand";v="99"'
            149 | '"Google Chrome";v="149", "Chromium";v="149", "Not)A;Brand";v="24"'
            153 | '"Google Chrome";v="153", "Not_A Brand";v="8", "Chromium";v="153"'
            154 | '"Chromium";v="154", "Google Chrome";v="154", "Not A(Brand";v="99"'
            """)
    void clientHintBrandsWhenVersionThenXraysGreasedList(int version, String expected) {
        assertThat(XrayChrome.clientHintBrands(version)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} with skew {1}: Chrome {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # values printed by Xray's ChromeVersion() formula (browser.go) with the generator's draw fixed
            2026-01-13T00:00:00Z | 0     | 143
            2026-02-17T00:00:00Z | 0     | 144
            2026-03-23T23:59:59Z | 0.999 | 142
            2026-12-01T12:00:00Z | 0     | 152
            2026-12-01T12:00:00Z | 0.5   | 151
            2026-12-01T12:00:00Z | 0.999 | 149
            2027-06-30T00:00:00Z | 0.5   | 157
            """)
    void majorVersionWhenDayAndSkewThenXraysFormula(String now, double skew, int expected) {
        assertThat(XrayChrome.majorVersion(Instant.parse(now), skew)).isEqualTo(expected);
    }

    @Test
    void writeRequestWhenNothingConfiguredThenHostUserAgentSortedRestAndGoTransportHeaders() {
        assertThat(written(ProbeHeaders.of(Map.of(), 149), "GET", false))
                .containsExactly(
                        "Host: example.com",
                        "User-Agent: " + XrayChrome.userAgent(149),
                        "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,"
                                + "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
                        "Accept-Language: en-US,en;q=0.9",
                        "Cache-Control: max-age=0",
                        "DNT: 1",
                        "Priority: u=0, i",
                        "Sec-CH-UA: " + XrayChrome.clientHintBrands(149),
                        "Sec-CH-UA-Mobile: ?0",
                        "Sec-CH-UA-Platform: \"Windows\"",
                        "Sec-Fetch-Dest: document",
                        "Sec-Fetch-Mode: navigate",
                        "Sec-Fetch-Site: none",
                        "Sec-Fetch-User: ?1",
                        "Upgrade-Insecure-Requests: 1",
                        "Accept-Encoding: gzip");
    }

    @Test
    void writeRequestWhenHeadWithoutKeepAliveThenConnectionCloseAndNoAcceptEncoding() {
        List<String> head = written(ProbeHeaders.of(Map.of(), 149), "HEAD", true);

        assertThat(head).last().isEqualTo("Connection: close");
        assertThat(head).noneMatch(line -> line.startsWith("Accept-Encoding"));
    }

    @Test
    void writeRequestWhenPostThenEmptyContentLengthAfterUserAgentAsGoWritesIt() {
        assertThat(written(ProbeHeaders.of(Map.of(), 149), "POST", true).subList(0, 3))
                .containsExactly("Host: example.com", "User-Agent: " + XrayChrome.userAgent(149), "Content-Length: 0");
    }

    @Test
    void ofWhenHeadersConfiguredThenReplacedRemovedOrSortedInAndGoHeadersYieldToThem() {
        ProbeHeaders headers = configured(
                "probe.headers.user-agent=observatory-test",
                "probe.headers.X-Probe=1",
                "probe.headers.SEC-CH-UA=",
                "probe.headers.accept-encoding=br",
                "probe.headers.host=probe.example");

        List<String> head = written(headers, "GET", false);

        assertThat(head)
                .startsWith("Host: probe.example", "User-Agent: observatory-test")
                .contains("Accept-Encoding: br")
                .doesNotContain("Accept-Encoding: gzip")
                .noneMatch(line -> line.startsWith("Sec-CH-UA:"))
                .endsWith("Upgrade-Insecure-Requests: 1", "X-Probe: 1");
        assertThat(headers.asMap()).hasSize(16);
    }

    @Test
    void writeRequestWhenRedirectedWithUserInfoThenRefererAndAuthorizationSortedInAsGosClientAddsThem() {
        ProbeHop hop = new ProbeHop(
                URI.create("http://user@example.com/next"),
                "GET",
                "example.com",
                "http://example.com/from",
                "example.com",
                1);

        List<String> head = written(ProbeHeaders.of(Map.of(), 149), hop, false);

        assertThat(names(head))
                .containsExactly(
                        "Host",
                        "User-Agent",
                        "Accept",
                        "Accept-Language",
                        "Authorization",
                        "Cache-Control",
                        "DNT",
                        "Priority",
                        "Referer",
                        "Sec-CH-UA",
                        "Sec-CH-UA-Mobile",
                        "Sec-CH-UA-Platform",
                        "Sec-Fetch-Dest",
                        "Sec-Fetch-Mode",
                        "Sec-Fetch-Site",
                        "Sec-Fetch-User",
                        "Upgrade-Insecure-Requests",
                        "Accept-Encoding");
        assertThat(head).contains("Authorization: Basic dXNlcjo=", "Referer: http://example.com/from");
    }

    @Test
    void writeRequestWhenAuthorizationRefererOrRangeConfiguredThenTheyWinAndRangeTurnsOffGzip() {
        ProbeHeaders headers = configured(
                "probe.headers.authorization=Bearer t",
                "probe.headers.Range=bytes=0-0",
                "probe.headers.Referer=https://configured.example/");
        ProbeHop hop = new ProbeHop(
                URI.create("http://u:p@example.com/"),
                "GET",
                "example.com",
                "http://example.com/from",
                "example.com",
                1);

        List<String> head = written(headers, hop, false);

        assertThat(head)
                .contains("authorization: Bearer t", "Referer: https://configured.example/")
                .doesNotContain("Authorization: Basic dTpw", "Referer: http://example.com/from");
        assertThat(head)
                .as("Go's transport asks for gzip only without a Range")
                .noneMatch(line -> line.startsWith("Accept-Encoding"));
        assertThat(written(configured("probe.headers.Range="), "GET", false)).contains("Accept-Encoding: gzip");
    }

    @ParameterizedTest(name = "redirect to {0}: credentials {1}")
    @CsvSource({
        "http://example.com/x, true",
        "http://api.example.com/x, true",
        "http://other.test/x, false",
        "http://badexample.com/x, false"
    })
    void writeRequestWhenRedirectedThenCredentialsGoOnlyToTheFirstDomainAndItsSubdomains(String to, boolean kept) {
        ProbeHeaders headers = configured(
                "probe.headers.Authorization=Bearer t", "probe.headers.Cookie=sid=1", "probe.headers.X-Probe=1");
        ProbeHop hop = new ProbeHop(URI.create("http://example.com/"), "GET", "example.com", null, "example.com", 0)
                .redirectTo(to, 302);

        List<String> head = written(headers, hop, false);

        assertThat(head.contains("Authorization: Bearer t")).isEqualTo(kept);
        assertThat(head.contains("Cookie: sid=1")).isEqualTo(kept);
        assertThat(head).contains("X-Probe: 1", "Referer: http://example.com/");
    }

    @ParameterizedTest(name = "{0} {1} after {2}: {3} {4}")
    @CsvSource(delimiter = '|', textBlock = """
            POST | http://h.test/a  | 302 | GET  | http://h.test/b
            POST | http://h.test/a  | 307 | POST | http://h.test/b
            HEAD | http://h.test/a  | 303 | HEAD | http://h.test/b
            GET  | https://h.test/a | 301 | GET  | https://h.test/b
            """)
    void redirectToWhenStatusThenGosMethodAndRefererRules(
            String method, String from, int status, String nextMethod, String next) {
        ProbeHop hop = new ProbeHop(URI.create(from), method, "h.test", null, "h.test", 0).redirectTo("b", status);

        assertThat(hop.method()).isEqualTo(nextMethod);
        assertThat(hop.url()).isEqualTo(URI.create(next));
        assertThat(hop.redirects()).isEqualTo(1);
    }

    @Test
    void redirectToWhenFromHttpsToHttpThenNoReferer() {
        ProbeHop hop = new ProbeHop(URI.create("https://h.test/a"), "GET", "h.test", null, "h.test", 0)
                .redirectTo("http://h.test:8080/b", 302);

        assertThat(hop.referer()).isNull();
        assertThat(hop.host()).isEqualTo("h.test:8080");
    }

    @Test
    void writeRequestWhenGoTransportHeadersConfiguredEmptyThenGoAddsNeither() {
        List<String> head =
                written(configured("probe.headers.Accept-Encoding=", "probe.headers.connection="), "GET", true);

        assertThat(head).noneMatch(line -> line.startsWith("Accept-Encoding") || line.startsWith("Connection"));
    }

    @Test
    void hostWhenConfiguredThenOnlyTheFirstRequestsHostIsReplaced() {
        assertThat(configured("probe.headers.host=vhost.example").host("127.0.0.1:8080"))
                .isEqualTo("vhost.example");
        assertThat(ProbeHeaders.of(Map.of(), 149).host("127.0.0.1:8080")).isEqualTo("127.0.0.1:8080");
    }

    @Test
    void writeConnectWhenTargetCredentialsConfiguredThenTheProxyNeverSeesThem() {
        HttpHeaders out = new DefaultHttpHeaders();
        configured(
                        "probe.headers.Authorization=Bearer s3cret",
                        "probe.headers.cookie=sid=s3cret",
                        "probe.headers.X-Probe=1")
                .writeConnect(out, "example.com:443", null);

        assertThat(out.toString()).doesNotContain("s3cret");
        assertThat(out.get("X-Probe")).isEqualTo("1");
    }

    @Test
    void writeConnectWhenAuthorizedThenProxyHeadersSortedIn() {
        HttpHeaders out = new DefaultHttpHeaders();
        ProbeHeaders.of(Map.of(), 149).writeConnect(out, "example.com:443", "Basic dTpw");

        assertThat(out.names())
                .containsExactly(
                        "Host",
                        "User-Agent",
                        "Accept",
                        "Accept-Language",
                        "Cache-Control",
                        "DNT",
                        "Priority",
                        "Proxy-Authorization",
                        "Proxy-Connection",
                        "Sec-CH-UA",
                        "Sec-CH-UA-Mobile",
                        "Sec-CH-UA-Platform",
                        "Sec-Fetch-Dest",
                        "Sec-Fetch-Mode",
                        "Sec-Fetch-Site",
                        "Sec-Fetch-User",
                        "Upgrade-Insecure-Requests");
        assertThat(out.get("Host")).isEqualTo("example.com:443");
        assertThat(out.get("Proxy-Connection")).isEqualTo("Keep-Alive");
    }
}
