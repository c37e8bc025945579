package io.observatory.detectionlab;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The checks that reached one target, as its nginx logs them ({@code .ci/detection-lab}'s {@code log_format checks
 * '$msec $server_protocol "$http_user_agent"'}, one line per request, written as the request ends): when each
 * arrived, in wall-clock milliseconds, and which checker sent it. HAProxy's {@code option httpchk GET <path>} sends
 * HTTP/1.0 without a {@code User-Agent}; ours sends HTTP/1.1 with Chrome's (Xray's); any other request (the lab's
 * own readiness checks with curl) is no check of either and is skipped. A refused or black-holed check never
 * reaches nginx, so the log shows each checker's timer only while the target answers: its last check before a fault
 * and its first after one. Immutable: one reading of the log (a 30-trial run logs a few thousand lines).
 */
final class CheckLog {

    /** Who sent a check. */
    enum Checker {
        OURS,
        HAPROXY
    }

    /** {@code 1764650000.123 HTTP/1.0 "-"}. */
    private static final Pattern LINE = Pattern.compile("^(\\d+\\.\\d{3}) (HTTP/[0-9.]+) \"(.*)\"$");

    private final List<Check> checks;

    private CheckLog(List<Check> checks) {
        this.checks = checks;
    }

    /**
     * The checks logged in {@code file} so far, in log order (none while it does not exist); a line not in the lab's
     * format (nginx logs a garbled request line without a protocol) is no check of either.
     */
    static CheckLog read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return new CheckLog(List.of());
        }
        return new CheckLog(Files.readAllLines(file).stream()
                .flatMap(line -> parse(line).stream())
                .toList());
    }

    /** One logged check: when nginx logged it (wall clock, ms) and its sender. */
    private record Check(long wallMillis, Checker checker) {}

    /**
     * When {@code checker}'s next check after {@code wallMillis} was due, in wall-clock milliseconds, for a checker
     * that checks every {@code interval} while the target is healthy: its last check that nginx logged at or before
     * then, plus its own measured period, the median of the times between its consecutive checks that lie within a
     * tenth of {@code interval} ({@code interval} itself while there are none). Each checker adds its own work to an
     * interval (HAProxy about 2 ms a second); the period counts it. Empty while nginx logged none of its checks.
     */
    OptionalLong nextDueAfter(Checker checker, long wallMillis, Duration interval) {
        long[] times = checks.stream()
                .filter(check -> check.checker() == checker)
                .mapToLong(Check::wallMillis)
                .sorted()
                .toArray();
        long nominal = interval.toMillis();
        long[] periods = IntStream.range(1, times.length)
                .mapToLong(i -> times[i] - times[i - 1])
                .filter(gap -> Math.abs(gap - nominal) <= nominal / 10)
                .sorted()
                .toArray();
        long period = periods.length == 0 ? nominal : periods[periods.length / 2];
        return Arrays.stream(times).filter(time -> time <= wallMillis).max().stream()
                .map(last -> last + period)
                .findFirst();
    }

    /** The time of the first check {@code checker} sent that nginx logged after {@code wallMillis}; empty if none. */
    OptionalLong firstAfter(Checker checker, long wallMillis) {
        return checks.stream()
                .filter(check -> check.checker() == checker && check.wallMillis() > wallMillis)
                .mapToLong(Check::wallMillis)
                .min();
    }

    /** The check {@code line} logs; empty for a request neither checker sent. */
    private static Optional<Check> parse(String line) {
        Matcher matcher = LINE.matcher(line);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long millis = new BigDecimal(matcher.group(1)).movePointRight(3).longValueExact();
        String protocol = matcher.group(2);
        String userAgent = matcher.group(3);
        if (protocol.equals("HTTP/1.0") && userAgent.equals("-")) {
            return Optional.of(new Check(millis, Checker.HAPROXY));
        }
        if (protocol.equals("HTTP/1.1") && userAgent.startsWith("Mozilla/")) {
            return Optional.of(new Check(millis, Checker.OURS));
        }
        return Optional.empty();
    }
}
