package io.observatory.detectionlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.api.v1.HealthState;
import io.observatory.detectionlab.HaproxyChecker.ServerStat;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Detection time against HAProxy on real faults, as {@code .ci/detection-lab} sets it up (as
 * root): targets A and B, each nginx in a network namespace of its own answering {@code GET /generate_204} with 204;
 * in the root namespace HAProxy ({@code check inter 1s fall 3 rise 2 fastinter 250}, {@code timeout check} and
 * {@code timeout connect} the lab's timeout, 2 s by default: a lost SYN is resent after 1 s, so a shorter deadline
 * fails probes under loss; HAProxy caps its connect at {@code inter}) and the service in its own JVM (probe interval 1
 * s, unhealthy threshold 3, healthy threshold 2, the same timeout, expected status 204; with the {@code per-outbound}
 * schedule edge intervals of 250 ms, with {@code xray} concurrent rounds), both checking both targets. Faults are nft
 * rules inside the targets' namespaces. Both checkers are read at the same rate, every 20 ms, ours with {@code
 * observatory.v1} GetObservation, HAProxy with {@code show stat}; each time is taken when the answer that showed the
 * change arrived, from the moment the nft command that made (or ended) the fault returned.
 * <ol>
 *   <li>A starts refusing (TCP reset): time to unhealthy (HAProxy: DOWN), and to healthy again once it stops;</li>
 *   <li>the same while the neighbour B is black-holed throughout: HAProxy checks each server on its own timer, so B
 *       must not change A's times either;</li>
 *   <li>A is black-holed (nft drops every packet reaching it): each check fails only at a deadline, ours at its
 *       {@code connect-timeout} (by default the smaller of the timeout and the probe interval), HAProxy's at its
 *       connect timeout capped at {@code inter};</li>
 *   <li>A loses packets at random in both directions for a while: the changes of A's verdict (flaps) of both.</li>
 * </ol>
 * A trial starts at a random moment within one probe interval after both checkers settled, so that the fault meets
 * the probes' timers at every phase. Only what must hold is asserted — both detect and heal every fault, ours flaps
 * no more than HAProxy under loss; the times are printed, side by side per trial and as medians, means, maxima, the ratio of
 * medians and the mean difference per trial with two standard errors (the target: ours no later than
 * HAProxy). Ours also probes {@value #BACKGROUND_OUTBOUNDS} background outbounds on a loopback target, as a checker
 * of a fleet does, and the trials begin once it has completed {@value #WARM_UP_PROBES} probes. Target A's nginx logs
 * every check it answers ({@link CheckLog}), which places each checker's timer, so the lab also prints the difference
 * at equal timer phase: each checker counted from its own first check after the change. It is a measurement, not a
 * timed test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DetectionLabIT {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final int UNHEALTHY_THRESHOLD = 3;
    private static final int HEALTHY_THRESHOLD = 2;
    /** HAProxy's fastinter; ours: unhealthy-edge-interval and healthy-edge-interval (per-outbound schedule only). */
    private static final Duration EDGE_INTERVAL = Duration.ofMillis(250);

    private static final Duration POLL = Duration.ofMillis(20);
    /** The longest wait for one change, with room for Xray's rounds, which wait for the black-holed neighbour. */
    private static final Duration PATIENCE = Duration.ofSeconds(40);

    private static final Duration STARTUP_LIMIT = Duration.ofSeconds(120);
    private static final String A = "A";
    private static final String B = "B";
    /** Our outbound tags and HAProxy's server names of targets A and B. */
    private static final Map<String, String> TAGS = Map.of(A, "target-a", B, "target-b");

    private static final Map<String, String> SERVERS = Map.of(A, "a", B, "b");
    /**
     * Outbounds ours probes besides A and B, on a loopback target of this test, as a checker of a fleet does: they
     * keep its probe path compiled. At two probes a second the JIT leaves it cold for hours, and a cold refused
     * probe takes about 2 ms from its start to its result against 0.2 ms warm; HAProxy's C has no such start.
     */
    private static final int BACKGROUND_OUTBOUNDS = 100;
    /** Probes ours completes, background ones included, before the first trial. */
    private static final long WARM_UP_PROBES = 10_000;

    private static final Duration WARM_UP_LIMIT = Duration.ofMinutes(5);
    /** The fault-kinds scenario's outbounds: tcp and tls to A's TLS server, VMess through the core to A's v2ray. */
    private static final String REACH_PREFIX = "reach-";

    private static final String REACH_TCP = "reach-tcp";
    private static final String REACH_TLS = "reach-tls";
    private static final String REACH_TLS_REFUSED = "reach-tls-refused-sni";
    private static final String REACH_VMESS = "reach-vmess";
    private static final String REACH_VMESS_WRONG_ID = "reach-vmess-wrong-id";

    /** Our tags of A and B start with it, and no background outbound's does. */
    private static final String TARGET_TAG_PREFIX = "target-";
    /** The error kind label of our successful probes in {@code observatory_probe_results_total}. */
    private static final String NO_ERROR = "none";

    /** A target's verdict as either checker states it. */
    private enum Verdict {
        /** Ours HEALTHY; HAProxy {@code UP} or {@code UP 1/3}. */
        HEALTHY,
        /** Ours UNHEALTHY; HAProxy {@code DOWN} or {@code DOWN 1/2}. */
        UNHEALTHY,
        /** Ours UNKNOWN (never judged) or missing; HAProxy in maintenance or unchecked. */
        OTHER
    }

    /**
     * One read of one checker: each target's verdict; whether the checker is settled (HAProxy: no server's status
     * carries a fall or rise count; ours: always, its streaks are not served); {@link System#nanoTime()} when the
     * answer arrived.
     */
    private record Reading(Map<String, Verdict> verdicts, boolean settled, long atNanos) {}

    /** Times of one change as each checker served it; null for one that has not (yet). */
    private record Times(Duration ours, Duration haproxy) {}

    /**
     * One change of a trial, as each checker met it: {@code served}, from the change to the first answer that showed
     * it; {@code firstCheck}, from the change to the checker's first check after it, as target A's {@link CheckLog}
     * places it (each checker's timer phase, which the implementation does not choose).
     */
    private record Change(Times served, Times firstCheck) {

        /** From each checker's first check after the change to its first answer that showed it. */
        Times fromFirstCheck() {
            return new Times(
                    served.ours().minus(firstCheck.ours()), served.haproxy().minus(firstCheck.haproxy()));
        }

        /** How much later ours served the change than HAProxy, each counted from its own first check after it. */
        Duration differenceAtEqualPhase() {
            Times fromFirstCheck = fromFirstCheck();
            return fromFirstCheck.ours().minus(fromFirstCheck.haproxy());
        }
    }

    /** One trial of a timed scenario: detection and healing of both, and the packets nft refused. */
    /** One trial's two changes and how many packets its fault refused or dropped. */
    private record Trial(Change detected, Change healed, long faultPackets) {}

    private DetectionLab lab;
    private TestTarget background;
    private HaproxyChecker haproxy;
    private ObservatoryProcess observatory;
    private final List<TargetFault> faults = new ArrayList<>();
    private final List<String> summary = new ArrayList<>();

    @BeforeAll
    void startCheckers() throws Exception {
        lab = DetectionLab.fromSystemProperties();
        Files.createDirectories(lab.workDir());
        long begin = System.nanoTime();
        background = TestTarget.http();
        Map<String, String> servers = new LinkedHashMap<>();
        servers.put(SERVERS.get(A), lab.addresses().get(0) + ":" + lab.port());
        servers.put(SERVERS.get(B), lab.addresses().get(1) + ":" + lab.port());
        haproxy = HaproxyChecker.start(
                lab.workDir(),
                servers,
                "/generate_204",
                INTERVAL,
                UNHEALTHY_THRESHOLD,
                HEALTHY_THRESHOLD,
                EDGE_INTERVAL,
                lab.timeout());
        observatory = ObservatoryProcess.start(lab.jar(), lab.workDir(), observatoryConfig());
        print("HAProxy pid " + haproxy.pid() + ", observatory pid " + observatory.pid() + " (root namespace); targets"
                + " A " + lab.probeUrl(0) + " in " + lab.namespaceA() + ", B " + lab.probeUrl(1) + " in "
                + lab.namespaceB());
        print("ours: schedule " + lab.schedule().name().toLowerCase(Locale.ROOT).replace('_', '-') + ", "
                + describeOurs() + "; HAProxy: inter " + INTERVAL.toMillis() + "ms fall " + UNHEALTHY_THRESHOLD
                + " rise " + HEALTHY_THRESHOLD + " fastinter " + EDGE_INTERVAL.toMillis() + "ms, timeout check "
                + lab.timeout().toMillis() + "ms, nbthread 1; both read every " + POLL.toMillis() + " ms");
        try {
            await().pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(100))
                    .atMost(STARTUP_LIMIT)
                    .ignoreExceptionsMatching(e -> e instanceof io.grpc.StatusRuntimeException)
                    .until(() -> {
                        requireRunning();
                        return steady(readOurs(), Map.of(A, Verdict.HEALTHY, B, Verdict.HEALTHY))
                                && steady(readHaproxy(), Map.of(A, Verdict.HEALTHY, B, Verdict.HEALTHY))
                                && haproxy.servers().values().stream()
                                        .allMatch(server -> server.checkStatus().equals("L7OK"));
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "both targets not healthy for both checkers within " + seconds(STARTUP_LIMIT) + "\n"
                            + observatory.describeWithLog() + "\n" + haproxy.describeWithLog(),
                    e);
        }
        print("both checkers see A and B healthy after " + seconds(Duration.ofNanos(System.nanoTime() - begin)));
        long warmUpStart = System.nanoTime();
        try {
            await().pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofSeconds(1))
                    .atMost(WARM_UP_LIMIT)
                    .until(() -> {
                        requireRunning();
                        return observatory.probesCompleted() >= WARM_UP_PROBES;
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "ours did not complete " + WARM_UP_PROBES + " probes within " + seconds(WARM_UP_LIMIT) + "\n"
                            + observatory.describeWithLog(),
                    e);
        }
        print("ours warmed up: " + observatory.probesCompleted() + " probes (" + BACKGROUND_OUTBOUNDS
                + " background outbounds on " + background.url("/generate_204") + " besides A and B) in "
                + seconds(Duration.ofNanos(System.nanoTime() - warmUpStart)));
    }

    private String observatoryConfig() {
        StringBuilder yaml = new StringBuilder("  outbounds:\n");
        for (int target = 0; target < 2; target++) {
            yaml.append("    - { tag: ")
                    .append(TAGS.get(target == 0 ? A : B))
                    .append(", protocol: direct, probe-url: \"")
                    .append(lab.probeUrl(target))
                    .append("\" }\n");
        }
        for (int n = 0; n < BACKGROUND_OUTBOUNDS; n++) {
            yaml.append(String.format(
                    Locale.ROOT,
                    "    - { tag: background-%03d, protocol: direct," + " probe-url: \"%s\" }%n",
                    n,
                    background.url("/generate_204")));
        }
        DetectionLab.Reach reach = reach();
        String a = lab.addressA();
        yaml.append("    - { tag: ")
                .append(REACH_TCP)
                .append(", protocol: tcp, address: ")
                .append(a)
                .append(", port: ")
                .append(reach.tlsPort())
                .append(" }\n")
                .append("    - { tag: ")
                .append(REACH_TLS)
                .append(", protocol: tls, address: ")
                .append(a)
                .append(", port: ")
                .append(reach.tlsPort())
                .append(", sni: ")
                .append(reach.goodSni())
                .append(" }\n")
                .append("    - { tag: ")
                .append(REACH_TLS_REFUSED)
                .append(", protocol: tls, address: ")
                .append(a)
                .append(", port: ")
                .append(reach.tlsPort())
                .append(", sni: ")
                .append(reach.refusedSni())
                .append(" }\n")
                .append("  probe:\n    trusted-certificates: ")
                .append(reach.ca())
                .append('\n')
                .append("  core:\n    binary: /usr/bin/v2ray\n    config-file: ")
                .append(xrayConfig(reach))
                .append('\n');
        yaml.append("  standard:\n")
                .append("    subject-selector: [\"\"]\n")
                // Only the core's outbounds, from an Xray file, have no probe URL of their own: A's, kept out of
                // the checks log.
                .append("    probe-url: \"http://")
                .append(a)
                .append(':')
                .append(lab.port())
                .append("/reach_204\"\n")
                .append("    probe-interval: ")
                .append(INTERVAL.toMillis())
                .append("ms\n")
                .append("    expected-status: 204\n")
                .append("    unhealthy-threshold: ")
                .append(UNHEALTHY_THRESHOLD)
                .append('\n')
                .append("    healthy-threshold: ")
                .append(HEALTHY_THRESHOLD)
                .append('\n')
                .append("    timeout: ")
                .append(lab.timeout().toMillis())
                .append("ms\n");
        switch (lab.schedule()) {
            case XRAY -> yaml.append("    enable-concurrency: true\n");
            case PER_OUTBOUND ->
                yaml.append("    schedule: per-outbound\n")
                        .append("    unhealthy-edge-interval: ")
                        .append(EDGE_INTERVAL.toMillis())
                        .append("ms\n")
                        .append("    healthy-edge-interval: ")
                        .append(EDGE_INTERVAL.toMillis())
                        .append("ms\n");
        }
        return yaml.toString();
    }

    /** An operator's Xray file: two VMess outbounds to A's v2ray, one with the id it knows, one with another. */
    private String xrayConfig(DetectionLab.Reach reach) {
        String outbound = "{\"tag\": \"%s\", \"protocol\": \"vmess\", \"settings\": {\"vnext\": [{\"address\": \"%s\","
                + " \"port\": %d, \"users\": [{\"id\": \"%s\", \"alterId\": 0}]}]}}";
        String wrongId = "00000000" + reach.vmessId().substring(8);
        String json = "{\"outbounds\": ["
                + outbound.formatted(REACH_VMESS, lab.addressA(), reach.vmessPort(), reach.vmessId())
                + ", " + outbound.formatted(REACH_VMESS_WRONG_ID, lab.addressA(), reach.vmessPort(), wrongId) + "]}";
        Path file = lab.workDir().resolve("xray.json");
        try {
            Files.writeString(file, json);
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
        return file.toString();
    }

    private DetectionLab.Reach reach() {
        try {
            return lab.reach();
        } catch (IOException e) {
            throw new UncheckedIOException("the lab's reach.properties (run .ci/detection-lab)", e);
        }
    }

    private String describeOurs() {
        String common = "probe interval " + INTERVAL.toMillis() + "ms, unhealthy threshold " + UNHEALTHY_THRESHOLD
                + ", healthy threshold " + HEALTHY_THRESHOLD + ", timeout "
                + lab.timeout().toMillis() + "ms";
        return switch (lab.schedule()) {
            case XRAY -> "concurrent rounds (enable-concurrency: true), " + common;
            case PER_OUTBOUND -> common + ", unhealthy and healthy edge intervals " + EDGE_INTERVAL.toMillis() + "ms";
        };
    }

    /** Every step runs whatever the ones before it did; the first failure is thrown at the end. */
    @AfterAll
    void stopCheckers() throws Exception {
        List<Exception> failures = new ArrayList<>();
        faults.forEach(fault -> quietly(failures, fault::close));
        if (lab != null) {
            lab.namespaces()
                    .forEach(namespace -> quietly(failures, () -> {
                        List<String> left = TargetFault.deleteLeftovers(namespace);
                        if (!left.isEmpty()) {
                            print("deleted fault tables left in " + namespace + ": " + left);
                        }
                    }));
        }
        if (observatory != null) {
            quietly(failures, observatory::close);
        }
        if (haproxy != null) {
            quietly(failures, haproxy::close);
        }
        if (background != null) {
            quietly(failures, background::close);
        }
        if (!summary.isEmpty()) {
            print("summary (ours vs HAProxy, times from the nft command's return to the first answer showing the"
                    + " change):");
            summary.forEach(line -> print("  " + line));
        }
        if (!failures.isEmpty()) {
            failures.subList(1, failures.size()).forEach(failures.get(0)::addSuppressed);
            throw failures.get(0);
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void quietly(List<Exception> failures, Step step) {
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            failures.add(e instanceof Exception exception ? exception : new IllegalStateException(e));
        }
    }

    @Test
    @Order(1)
    void targetWhenItStartsRefusingThenBothDetectAndHealIt() {
        List<Trial> trials = trials("(a) A refuses", Map.of(A, Verdict.HEALTHY, B, Verdict.HEALTHY), refusal());
        report("(a) A refuses", trials);
    }

    @Test
    @Order(2)
    void targetWhenItStartsRefusingBesideABlackHoledNeighbourThenBothDetectAndHealIt() {
        Map<String, Verdict> neighbourDown = Map.of(A, Verdict.HEALTHY, B, Verdict.UNHEALTHY);
        long start;
        Times neighbourDetected;
        try (TargetFault blackHole = fault(TargetFault.blackHole(lab.namespaceB()))) {
            start = System.nanoTime();
            neighbourDetected =
                    awaitBoth(start, "B black-holed: unhealthy", verdicts -> verdicts.get(B) == Verdict.UNHEALTHY);
            print("(b) B black-holed (" + blackHole.describe() + "): unhealthy for ours in "
                    + seconds(neighbourDetected.ours()) + ", for HAProxy in " + seconds(neighbourDetected.haproxy()));
            List<Trial> trials = trials("(b) A refuses, B black-holed", neighbourDown, refusal());
            report("(b) A refuses, B black-holed", trials);
            summary.add(String.format(
                    Locale.ROOT,
                    "(b) B black-holed first: unhealthy in %s vs %s; %s",
                    seconds(neighbourDetected.ours()),
                    seconds(neighbourDetected.haproxy()),
                    blackHole.describeCounters()));
        }
        start = System.nanoTime();
        Times neighbourHealed = awaitBoth(start, "B back: healthy", verdicts -> verdicts.get(B) == Verdict.HEALTHY);
        print("(b) B back: healthy for ours in " + seconds(neighbourHealed.ours()) + ", for HAProxy in "
                + seconds(neighbourHealed.haproxy()));
    }

    /**
     * A black-holed (every packet to it dropped, the commonest censorship): each probe fails only at a deadline, ours
     * the connect deadline ({@code connect-timeout}, by default the smaller of the timeout and the probe interval),
     * HAProxy's its connect timeout capped at {@code inter}.
     */
    @Test
    @Order(3)
    void targetWhenBlackHoledThenBothDetectAndHealIt() {
        TrialFault blackHole = new TrialFault(() -> TargetFault.blackHole(lab.namespaceA()), "dropped");
        List<Trial> trials = trials("(c) A black-holed", Map.of(A, Verdict.HEALTHY, B, Verdict.HEALTHY), blackHole);
        report("(c) A black-holed", trials);
    }

    @Test
    @Order(4)
    void targetWhenItLosesPacketsThenOursDoesNotFlap() throws Exception {
        String what =
                "(d) A loses " + lab.lossPercent() + " % of its packets each way for " + seconds(lab.lossDuration());
        awaitSteady(what, Map.of(A, Verdict.HEALTHY, B, Verdict.HEALTHY), Duration.ZERO);
        Map<String, Long> oursBefore = observatory.probes(TAGS.get(A));
        ServerStat haproxyBefore = haproxy.servers().get(SERVERS.get(A));
        AtomicInteger oursFlaps = new AtomicInteger();
        AtomicInteger haproxyFlaps = new AtomicInteger();
        TargetFault loss = fault(TargetFault.packetLoss(lab.namespaceA(), "eth0", lab.lossPercent()));
        try (loss) {
            AtomicReference<Verdict> oursLast = new AtomicReference<>(Verdict.HEALTHY);
            AtomicReference<Verdict> haproxyLast = new AtomicReference<>(Verdict.HEALTHY);
            long start = System.nanoTime();
            await().pollDelay(Duration.ZERO)
                    .pollInterval(POLL)
                    .atMost(lab.lossDuration().plusSeconds(10))
                    .until(() -> {
                        requireRunning();
                        countFlap(readOurs().verdicts().get(A), oursLast, oursFlaps);
                        countFlap(readHaproxy().verdicts().get(A), haproxyLast, haproxyFlaps);
                        return System.nanoTime() - start >= lab.lossDuration().toNanos();
                    });
        }
        Map<String, Long> oursAfter = observatory.probes(TAGS.get(A));
        ServerStat haproxyAfter = haproxy.servers().get(SERVERS.get(A));
        Map<String, Long> oursFailed = new TreeMap<>();
        oursAfter.forEach((kind, count) -> oursFailed.put(kind, count - oursBefore.getOrDefault(kind, 0L)));
        long oursProbes =
                oursFailed.values().stream().mapToLong(Long::longValue).sum();
        long oursSucceeded = oursFailed.getOrDefault(NO_ERROR, 0L);
        oursFailed.remove(NO_ERROR);
        oursFailed.values().removeIf(count -> count == 0);
        String line = String.format(
                Locale.ROOT,
                "%s: flaps (healthy -> not healthy) ours %d, HAProxy %d (its"
                        + " chkdown +%d); failed checks ours %d of %d %s, HAProxy %d (chkfail); nft %s",
                what,
                oursFlaps.get(),
                haproxyFlaps.get(),
                haproxyAfter.downs() - haproxyBefore.downs(),
                oursProbes - oursSucceeded,
                oursProbes,
                oursFailed,
                haproxyAfter.failedChecks() - haproxyBefore.failedChecks(),
                loss.describeCounters());
        print(line);
        summary.add(line);

        Map<String, Long> packets = loss.counters();
        for (String direction : List.of("in", "out")) {
            assertThat(100.0 * packets.get(direction + "_dropped") / packets.get(direction + "_seen"))
                    .as("share of A's packets dropped, direction " + direction + " (" + loss.describeCounters() + ")")
                    .isBetween(lab.lossPercent() / 2.0, lab.lossPercent() * 1.5);
        }
        // Ours caps each connect at the connect deadline, by default the smaller of the timeout and the probe interval
        // (1 s here), as HAProxy caps its at inter: Linux resends a lost SYN after 1 s, so for both one lost SYN or
        // SYN-ACK fails a check, about one in six at 10 % loss each way, and three in a row flap now and then (about
        // one run in four for each). Asserted: ours flaps no more than HAProxy beyond that chance (P(3 more) < 0.5 %).
        assertThat(oursFlaps.get())
                .as("our flaps of A under " + lab.lossPercent() + " % loss beside HAProxy's: " + line)
                .isLessThanOrEqualTo(haproxyFlaps.get() + 2);
        awaitSteady("after " + what, Map.of(A, Verdict.HEALTHY, B, Verdict.HEALTHY), Duration.ZERO);
    }

    /**
     * The three fault kinds told apart by the checks that see them, on A: its TLS server refuses one SNI (tls sees it,
     * tcp does not), the VMess server does not know one id (only the probe through the core sees it), and then A is
     * black-holed, an IP block, which tcp, tls and the core's probe all see.
     */
    @Test
    @Order(5)
    void faultKindsWhenSniRefusedVmessIdWrongOrIpBlockedThenTheChecksThatSeeThemTellThemApart() {
        List<String> reach = List.of(REACH_TCP, REACH_TLS, REACH_VMESS);
        Map<String, HealthState> expected = new LinkedHashMap<>();
        reach.forEach(tag -> expected.put(tag, HealthState.HEALTH_STATE_HEALTHY));
        expected.put(REACH_TLS_REFUSED, HealthState.HEALTH_STATE_UNHEALTHY);
        expected.put(REACH_VMESS_WRONG_ID, HealthState.HEALTH_STATE_UNHEALTHY);
        // The refused SNI's outbound is unhealthy throughout; after (d)'s packet loss its last error may still be a
        // lost SYN's connect timeout, so the wait is also for a probe since that shows the server's own refusal.
        await().pollInterval(POLL).atMost(PATIENCE).until(() -> {
            requireRunning();
            return observatory.verdicts(REACH_PREFIX).equals(expected)
                    && observatory.lastError(REACH_TLS_REFUSED).contains("it sent the alert unrecognized_name");
        });
        print("(e) fault kinds on A: " + expected + "; tls with SNI " + reach().refusedSni() + ": "
                + observatory.lastError(REACH_TLS_REFUSED) + "; VMess with a wrong id: "
                + observatory.lastError(REACH_VMESS_WRONG_ID));
        Map<String, Duration> blocked = new LinkedHashMap<>();
        try (TargetFault block = fault(TargetFault.blackHole(lab.namespaceA()))) {
            long start = System.nanoTime();
            await().pollInterval(POLL).atMost(PATIENCE).until(() -> {
                requireRunning();
                Map<String, HealthState> now = observatory.verdicts(REACH_PREFIX);
                reach.forEach(tag -> {
                    if (now.get(tag) == HealthState.HEALTH_STATE_UNHEALTHY) {
                        blocked.putIfAbsent(tag, Duration.ofNanos(System.nanoTime() - start));
                    }
                });
                return blocked.size() == reach.size();
            });
            String line = "(e) A black-holed (an IP block): unhealthy after "
                    + blocked.entrySet().stream()
                            .map(entry -> entry.getKey() + " " + seconds(entry.getValue()))
                            .toList()
                    + "; " + block.describeCounters();
            print(line);
            summary.add(line);
        }
        await().pollInterval(POLL).atMost(PATIENCE).until(() -> {
            requireRunning();
            return observatory.verdicts(REACH_PREFIX).equals(expected);
        });
    }

    /** Counts a flap when {@code now} leaves HEALTHY; {@code last} holds the previous reading. */
    private static void countFlap(Verdict now, AtomicReference<Verdict> last, AtomicInteger flaps) {
        if (last.getAndSet(now) == Verdict.HEALTHY && now != Verdict.HEALTHY) {
            flaps.incrementAndGet();
        }
    }

    // --- timed trials ----------------------------------------------------------------------------------------------

    /** A's fault of scenarios (a) and (b): its port refuses (TCP reset); counter {@code refused}. */
    private TrialFault refusal() {
        return new TrialFault(() -> TargetFault.refuse(lab.namespaceA(), lab.port()), "refused");
    }

    /** How a trial makes A's fault, and the fault's counter of the packets it hit. */
    private record TrialFault(Supplier<TargetFault> make, String counter) {}

    /**
     * Runs {@link DetectionLab#trials()} trials: wait until both checkers are settled in {@code steady} and a random
     * part of one interval more has passed; make A's {@code fault}; time both to unhealthy; wait until both are settled
     * so and a random part of an interval more; end the fault; time both to healthy. The random waits put each change
     * at any phase of both checkers' probe timers (the last of them to settle would otherwise set it).
     */
    private List<Trial> trials(String scenario, Map<String, Verdict> steady, TrialFault fault) {
        List<Trial> trials = new ArrayList<>();
        print(scenario + ": trial  detected ours / HAProxy   healed ours / HAProxy");
        for (int n = 1; n <= lab.trials(); n++) {
            Duration offset = randomOffset();
            awaitSteady(scenario + ", before trial " + n, steady, offset);
            Change detected;
            Change healed;
            Duration healOffset;
            TargetFault refused = fault(fault.make().get());
            try (refused) {
                long start = System.nanoTime();
                long startWall = System.currentTimeMillis();
                Times served = awaitBoth(
                        start,
                        scenario + ", trial " + n + ": A unhealthy",
                        verdicts -> verdicts.get(A) == Verdict.UNHEALTHY);
                detected = new Change(served, firstChecksAfterFault(scenario, n, startWall));
                Map<String, Verdict> refusing = new LinkedHashMap<>(steady);
                refusing.put(A, Verdict.UNHEALTHY);
                healOffset = randomOffset();
                awaitSteady(scenario + ", trial " + n + ", A refusing", refusing, healOffset);
                refused.close();
                start = System.nanoTime();
                startWall = System.currentTimeMillis();
                served = awaitBoth(
                        start,
                        scenario + ", trial " + n + ": A healthy again",
                        verdicts -> verdicts.get(A) == Verdict.HEALTHY);
                healed = new Change(served, firstChecksAfterHealing(scenario, n, startWall));
            }
            Trial trial = new Trial(detected, healed, refused.counters().get(fault.counter()));
            trials.add(trial);
            print(String.format(
                    Locale.ROOT,
                    "%s: %5d  %8s / %-8s     %8s / %-8s  (first checks after the change"
                            + " %s / %s and %s / %s; offsets %d, %d ms; %d packets %s)",
                    scenario,
                    n,
                    millis(detected.served().ours()),
                    millis(detected.served().haproxy()),
                    millis(healed.served().ours()),
                    millis(healed.served().haproxy()),
                    millis(detected.firstCheck().ours()),
                    millis(detected.firstCheck().haproxy()),
                    millis(healed.firstCheck().ours()),
                    millis(healed.firstCheck().haproxy()),
                    offset.toMillis(),
                    healOffset.toMillis(),
                    trial.faultPackets(),
                    fault.counter()));
        }
        return trials;
    }

    /**
     * Each checker's first check of A after the refusal began at {@code startWall} (wall clock, ms), from then: its
     * last check that A answered before, plus its own period while healthy (the refused checks never reach A's log).
     * That period is one interval on both with the per-outbound schedule; Xray's rounds also wait for their slowest
     * probe, so with that schedule the figure at equal timer phase does not hold while B is black-holed.
     */
    private Times firstChecksAfterFault(String scenario, int trial, long startWall) {
        return firstChecks(
                scenario, trial, startWall, (log, checker) -> log.nextDueAfter(checker, startWall, INTERVAL));
    }

    /** Each checker's first check that A answered after the refusal ended at {@code startWall}, from then. */
    private Times firstChecksAfterHealing(String scenario, int trial, long startWall) {
        return firstChecks(scenario, trial, startWall, (log, checker) -> log.firstAfter(checker, startWall));
    }

    private Times firstChecks(
            String scenario, int trial, long startWall, BiFunction<CheckLog, CheckLog.Checker, OptionalLong> first) {
        CheckLog log;
        try {
            log = lab.readChecksOfA();
        } catch (IOException e) {
            throw new UncheckedIOException("A's check log " + lab.checkLogs().get(0), e);
        }
        Map<CheckLog.Checker, Duration> fromStart = new EnumMap<>(CheckLog.Checker.class);
        for (CheckLog.Checker checker : CheckLog.Checker.values()) {
            long at = first.apply(log, checker)
                    .orElseThrow(() -> new AssertionError(scenario + ", trial " + trial
                            + ": no check of " + checker + " in A's check log "
                            + lab.checkLogs().get(0)
                            + " to place its timer by"));
            fromStart.put(checker, Duration.ofMillis(at - startWall));
        }
        return new Times(fromStart.get(CheckLog.Checker.OURS), fromStart.get(CheckLog.Checker.HAPROXY));
    }

    /** A random part of one probe interval, uniform in [0, 1 s): how much longer a trial waits before a change. */
    private static Duration randomOffset() {
        return Duration.ofNanos(ThreadLocalRandom.current().nextLong(INTERVAL.toNanos()));
    }

    /** Prints and keeps the medians, means, maxima and ratios of medians (ours / HAProxy) of the trials. */
    private void report(String scenario, List<Trial> trials) {
        String line = scenario + " (" + trials.size() + " trials): detected "
                + compare(trials.stream().map(Trial::detected).toList()) + "; healed "
                + compare(trials.stream().map(Trial::healed).toList());
        print(line);
        summary.add(line);
    }

    /**
     * E.g. {@code median 1.42 s vs 1.51 s (ours / HAProxy 0.94), mean 1.40 s vs 1.47 s, max 1.98 s vs 2.01 s, ours -
     * HAProxy per trial -0.07 s mean ± 0.32 s (2 standard errors); at equal timer phase -0.004 s ± 0.006 s (each
     * from its first check after the change, median 0.52 s vs 0.53 s)}.
     *
     * <p>Both checkers' timers tick every interval, at a phase to each other that a run keeps, so each trial's
     * difference is either a small lead or almost an interval's lag, depending on where the change fell between the
     * ticks; a median of ten swings with how many fell into the lag, and the mean difference, whose expectation is
     * zero for two checkers with the same timers, carries that spread as noise. The last figure takes it out: each
     * checker counted from its own first check after the change ({@link CheckLog}), which leaves what the
     * implementations do differently, from the check to the answer that shows its verdict.
     */
    private static String compare(List<Change> changes) {
        List<Duration> ours =
                changes.stream().map(change -> change.served().ours()).toList();
        List<Duration> haproxy =
                changes.stream().map(change -> change.served().haproxy()).toList();
        double oursMedian = medianNanos(ours);
        double haproxyMedian = medianNanos(haproxy);
        double[] differences = changes.stream()
                .mapToDouble(change ->
                        inSeconds(change.served().ours().minus(change.served().haproxy())))
                .toArray();
        double[] atEqualPhase = changes.stream()
                .mapToDouble(change -> inSeconds(change.differenceAtEqualPhase()))
                .toArray();
        List<Duration> oursFromCheck =
                changes.stream().map(change -> change.fromFirstCheck().ours()).toList();
        List<Duration> haproxyFromCheck = changes.stream()
                .map(change -> change.fromFirstCheck().haproxy())
                .toList();
        return String.format(
                Locale.ROOT,
                "median %s vs %s (ours / HAProxy %.2f), mean %s vs %s, max %s vs %s, ours"
                        + " - HAProxy per trial %+.2f s mean ± %.2f s (2 standard errors); at equal timer phase"
                        + " %+.3f s ± %.3f s (2 standard errors; each from its first check after the change, median"
                        + " %s vs %s)",
                seconds(Duration.ofNanos((long) oursMedian)),
                seconds(Duration.ofNanos((long) haproxyMedian)),
                oursMedian / haproxyMedian,
                seconds(mean(ours)),
                seconds(mean(haproxy)),
                seconds(max(ours)),
                seconds(max(haproxy)),
                Arrays.stream(differences).average().orElseThrow(),
                2 * standardError(differences),
                Arrays.stream(atEqualPhase).average().orElseThrow(),
                2 * standardError(atEqualPhase),
                seconds(Duration.ofNanos((long) medianNanos(oursFromCheck))),
                seconds(Duration.ofNanos((long) medianNanos(haproxyFromCheck))));
    }

    private static double inSeconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    /** The standard error of the mean of {@code values}: their sample standard deviation over the root of their count. */
    private static double standardError(double[] values) {
        if (values.length < 2) {
            return Double.NaN;
        }
        double mean = Arrays.stream(values).average().orElseThrow();
        double squares = Arrays.stream(values)
                .map(value -> (value - mean) * (value - mean))
                .sum();
        return Math.sqrt(squares / (values.length - 1)) / Math.sqrt(values.length);
    }

    private static Duration mean(List<Duration> durations) {
        return Duration.ofNanos(
                (long) durations.stream().mapToLong(Duration::toNanos).average().orElseThrow());
    }

    private static double medianNanos(List<Duration> durations) {
        List<Long> sorted = durations.stream().map(Duration::toNanos).sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    }

    private static Duration max(List<Duration> durations) {
        return durations.stream().max(Duration::compareTo).orElseThrow();
    }

    // --- reading both checkers -------------------------------------------------------------------------------------

    private TargetFault fault(TargetFault fault) {
        faults.add(fault);
        return fault;
    }

    private Reading readOurs() {
        Map<String, HealthState> served = observatory.verdicts(TARGET_TAG_PREFIX);
        long at = System.nanoTime();
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        TAGS.forEach((target, tag) -> verdicts.put(
                target,
                switch (served.getOrDefault(tag, HealthState.HEALTH_STATE_UNKNOWN)) {
                    case HEALTH_STATE_HEALTHY -> Verdict.HEALTHY;
                    case HEALTH_STATE_UNHEALTHY -> Verdict.UNHEALTHY;
                    default -> Verdict.OTHER;
                }));
        return new Reading(verdicts, true, at);
    }

    private Reading readHaproxy() {
        Map<String, ServerStat> servers = haproxy.servers();
        long at = System.nanoTime();
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        boolean settled = true;
        for (Map.Entry<String, String> target : SERVERS.entrySet()) {
            ServerStat server = servers.get(target.getValue());
            verdicts.put(
                    target.getKey(),
                    server == null
                            ? Verdict.OTHER
                            : server.up() ? Verdict.HEALTHY : server.down() ? Verdict.UNHEALTHY : Verdict.OTHER);
            settled &= server != null
                    && (server.status().equals("UP") || server.status().equals("DOWN"));
        }
        return new Reading(verdicts, settled, at);
    }

    private static boolean steady(Reading reading, Map<String, Verdict> expected) {
        return reading.settled() && reading.verdicts().equals(expected);
    }

    private void requireRunning() {
        if (!observatory.alive()) {
            throw new AssertionError("the service exited: " + observatory.describeWithLog());
        }
        if (!haproxy.alive()) {
            throw new AssertionError("HAProxy exited: " + haproxy.describeWithLog());
        }
    }

    /** Waits at least {@code notBefore}, then until both checkers are settled in {@code expected}. */
    private void awaitSteady(String what, Map<String, Verdict> expected, Duration notBefore) {
        AtomicReference<String> last = new AtomicReference<>("(no answer)");
        try {
            await().pollDelay(notBefore)
                    .pollInterval(POLL)
                    .atMost(notBefore.plus(PATIENCE))
                    .until(() -> {
                        requireRunning();
                        Reading ours = readOurs();
                        Reading theirs = readHaproxy();
                        last.set("ours " + ours.verdicts() + ", HAProxy " + haproxy.servers());
                        return steady(ours, expected) && steady(theirs, expected);
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    what + ": both checkers not settled in " + expected + " within " + seconds(PATIENCE)
                            + "; last seen " + last.get(),
                    e);
        }
    }

    /**
     * Reads both checkers every 20 ms from {@code startNanos} until each has served {@code done}, a checker no more
     * once it has. Returns the time from {@code startNanos} to each one's first answer that showed it.
     *
     * @throws AssertionError when 40 s pass first (naming who did not), or a checker exits (with its log)
     */
    private Times awaitBoth(long startNanos, String what, Predicate<Map<String, Verdict>> done) {
        AtomicLong ours = new AtomicLong(-1);
        AtomicLong theirs = new AtomicLong(-1);
        AtomicReference<Reading> oursLast = new AtomicReference<>();
        AtomicReference<Reading> theirsLast = new AtomicReference<>();
        try {
            await().pollDelay(Duration.ZERO).pollInterval(POLL).atMost(PATIENCE).until(() -> {
                requireRunning();
                if (ours.get() < 0) {
                    Reading reading = readOurs();
                    oursLast.set(reading);
                    if (done.test(reading.verdicts())) {
                        ours.set(reading.atNanos() - startNanos);
                    }
                }
                if (theirs.get() < 0) {
                    Reading reading = readHaproxy();
                    theirsLast.set(reading);
                    if (done.test(reading.verdicts())) {
                        theirs.set(reading.atNanos() - startNanos);
                    }
                }
                return ours.get() >= 0 && theirs.get() >= 0;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    what + ": not served within " + seconds(PATIENCE) + " by"
                            + (ours.get() < 0 ? " ours" : "") + (theirs.get() < 0 ? " HAProxy" : "")
                            + "; last seen ours "
                            + oursLast.get() + ", HAProxy " + theirsLast.get() + "\n" + observatory.describeWithLog()
                            + "\n"
                            + haproxy.describeWithLog(),
                    e);
        }
        return new Times(Duration.ofNanos(ours.get()), Duration.ofNanos(theirs.get()));
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.2f s", duration.toNanos() / 1e9);
    }

    private static String millis(Duration duration) {
        return duration.toMillis() + " ms";
    }

    private static void print(String line) {
        System.out.println("detection-lab: " + line);
    }
}
