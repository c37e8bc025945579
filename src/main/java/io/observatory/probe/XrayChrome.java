package io.observatory.probe;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/**
 * The desktop Chrome that Xray's probes imitate ({@code common/utils/browser.go}): its major version, drifting with
 * the date as Chrome's releases do, its {@code User-Agent} and its {@code Sec-CH-UA} brand list in Chromium's GREASE
 * form, and the navigation headers Xray sends with them (browser {@code chrome}, variant {@code nav}).
 */
final class XrayChrome {

    /** Xray's anchor: Chrome 144, released on 2026-01-13. */
    private static final int ANCHOR_VERSION = 144;

    private static final long ANCHOR_DAY = LocalDate.of(2026, 1, 13).toEpochDay();

    /** Days between two Chrome major versions, in Xray's model. */
    private static final int RELEASE_DAYS = 35;

    /** At most this many days (less one) a machine lags behind the newest version, scaled by the squared skew. */
    private static final int MAX_LAG_DAYS = 105;

    /** The characters Chromium puts around the "A" of its invented brand. */
    private static final String[] GREASE_CHARACTERS = {" ", "(", ":", "-", ".", "/", ")", ";", "=", "?", "_"};

    /** The versions Chromium gives its invented brand. */
    private static final String[] GREASE_VERSIONS = {"8", "99", "24"};

    /** The orders of three brands, chosen by the major version. */
    private static final int[][] BRAND_ORDERS = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

    private XrayChrome() {}

    /**
     * The Chrome major version Xray announces on {@code now}'s day: {@code 144 + (days since 2026-01-13 - 35 - lag)
     * / 35}, the division truncated as in Go, where the lag is {@code floor(skew² × 105)} days. Xray draws the skew
     * once per machine from a generator seeded with its CPU's model; this service draws it once per process.
     *
     * @param skew a number in [0, 1)
     */
    static int majorVersion(Instant now, double skew) {
        long days = Math.floorDiv(now.getEpochSecond(), 86_400L) - ANCHOR_DAY;
        long lagged = days - RELEASE_DAYS - (long) Math.floor(skew * skew * MAX_LAG_DAYS);
        return (int) (ANCHOR_VERSION + lagged / RELEASE_DAYS);
    }

    /**
     * The {@code Sec-CH-UA} value of Chrome {@code major}: an invented brand, {@code Chromium} and {@code Google
     * Chrome}, in an order and with an invented name and version chosen by the major version, as Chromium does, e.g.
     * {@code "Google Chrome";v="149", "Chromium";v="149", "Not)A;Brand";v="24"} for 149.
     */
    static String clientHintBrands(int major) {
        String[] brands = {
            "\"Not" + GREASE_CHARACTERS[major % GREASE_CHARACTERS.length] + "A"
                    + GREASE_CHARACTERS[(major + 1) % GREASE_CHARACTERS.length] + "Brand\";v=\""
                    + GREASE_VERSIONS[major % GREASE_VERSIONS.length] + "\"",
            "\"Chromium\";v=\"" + major + "\"",
            "\"Google Chrome\";v=\"" + major + "\""
        };
        int[] order = BRAND_ORDERS[major % BRAND_ORDERS.length];
        String[] ordered = new String[brands.length];
        for (int i = 0; i < brands.length; i++) {
            ordered[order[i]] = brands[i];
        }
        return String.join(", ", ordered);
    }

    /** The {@code User-Agent} of desktop Chrome {@code major} on 64-bit Windows. */
    static String userAgent(int major) {
        return "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + major
                + ".0.0.0 Safari/537.36";
    }

    /**
     * The headers Xray's {@code TryDefaultHeadersWith(header, "nav")} sets for Chrome {@code major}, with the names
     * spelled as Xray spells them ({@code Sec-CH-UA}, {@code DNT}); 14 entries, unordered: Go writes them sorted.
     */
    static Map<String, String> navigationHeaders(int major) {
        return Map.ofEntries(
                Map.entry("Sec-CH-UA", clientHintBrands(major)),
                Map.entry("Sec-CH-UA-Mobile", "?0"),
                Map.entry("Sec-CH-UA-Platform", "\"Windows\""),
                Map.entry("DNT", "1"),
                Map.entry("User-Agent", userAgent(major)),
                Map.entry("Accept-Language", "en-US,en;q=0.9"),
                Map.entry("Cache-Control", "max-age=0"),
                Map.entry("Upgrade-Insecure-Requests", "1"),
                Map.entry(
                        "Accept",
                        "text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,"
                                + "image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"),
                Map.entry("Sec-Fetch-Site", "none"),
                Map.entry("Sec-Fetch-Mode", "navigate"),
                Map.entry("Sec-Fetch-User", "?1"),
                Map.entry("Sec-Fetch-Dest", "document"),
                Map.entry("Priority", "u=0, i"));
    }
}
