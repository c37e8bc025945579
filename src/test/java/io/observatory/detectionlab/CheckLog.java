package io.observatory.detectionlab;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks that reached one target, as its nginx logs them ({@code .ci/detection-lab}'s {@code log_format checks
 * '$msec $server_protocol "$http_user_agent"'}, one line per request, written as the request ends): when each
 * arrived, in wall-clock milliseconds, and which checker sent it. HAProxy's {@code option httpchk GET <path>} sends
 * HTTP/1.0 without a {@code User-Agent}; ours sends HTTP/1.1 with Chrome's. A refused or black-holed check never
 * reaches nginx, so the log shows each checker's timer only while the target answers: its last check before a fault
 * and its first after one. Read whole at each question (a 30-trial run logs a few thousand lines).
 */
final class CheckLog {

    /** Who sent a check. */
    enum Checker {
        OURS,
        HAPROXY
    }

    /** {@code 1764650000.123 HTTP/1.0 "-"}. */
    private static final Pattern LINE = Pattern.compile("^(\\d+\\.\\d{3}) (HTTP/[0-9.]+) \"(.*)\"$");

    private final Path file;

    CheckLog(Path file) {
        this.file = file;
    }

    /** One logged check: when nginx logged it (wall clock, ms) and its sender. */
    private record Check(long wallMillis, Checker checker) {
    }

    /**
     * The wall-clock time in milliseconds of the last check {@code checker} sent that nginx logged at or before
     * {@code wallMillis}; empty if none.
     */
    OptionalLong lastAtOrBefore(Checker checker, long wallMillis) throws IOException {
        return checks().stream().filter(check -> check.checker() == checker && check.wallMillis() <= wallMillis)
                .mapToLong(Check::wallMillis).max();
    }

    /** The time of the first check {@code checker} sent that nginx logged after {@code wallMillis}; empty if none. */
    OptionalLong firstAfter(Checker checker, long wallMillis) throws IOException {
        return checks().stream().filter(check -> check.checker() == checker && check.wallMillis() > wallMillis)
                .mapToLong(Check::wallMillis).min();
    }

    /**
     * Every check logged so far, in log order.
     *
     * @throws IllegalStateException on a line not in the lab's format (the log is not the one the lab configured)
     */
    private List<Check> checks() throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        return Files.readAllLines(file).stream().filter(line -> !line.isBlank()).map(this::parse).toList();
    }

    private Check parse(String line) {
        Matcher matcher = LINE.matcher(line);
        if (!matcher.matches()) {
            throw new IllegalStateException(file + ": line not in the lab's check log format: " + line);
        }
        long millis = new BigDecimal(matcher.group(1)).movePointRight(3).longValueExact();
        boolean haproxy = matcher.group(2).equals("HTTP/1.0") && matcher.group(3).equals("-");
        return new Check(millis, haproxy ? Checker.HAPROXY : Checker.OURS);
    }
}
