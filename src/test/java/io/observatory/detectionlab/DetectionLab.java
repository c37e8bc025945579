package io.observatory.detectionlab;

import io.observatory.text.GoDuration;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The network lab that {@code .ci/detection-lab} builds and passes through Maven's {@code detection-lab} profile, with
 * the measurement's parameters: one network namespace per target (A first, then its neighbour B), each running nginx
 * on its address, reached from the root namespace over its own veth pair.
 *
 * @param namespaces   the targets' namespaces, A first (system property {@code detection-lab.namespaces},
 *                     comma-separated)
 * @param addresses    each target's address in its namespace, in the same order ({@code detection-lab.addresses})
 * @param port         the TCP port nginx listens on at every address ({@code detection-lab.port})
 * @param checkLogs    each target's nginx log of the checks it answered, in the same order, as {@link CheckLog} reads
 *                     it ({@code detection-lab.check-logs})
 * @param trials       trials of each timed scenario, at least 1 ({@code detection-lab.trials}, default 30)
 * @param schedule     the standard observer's {@code schedule}: {@code per-outbound} or {@code xray} (Xray's rounds,
 *                     here concurrent: {@code enable-concurrency: true}) ({@code detection-lab.schedule}, default
 *                     {@code per-outbound})
 * @param timeout      the probe timeout of both checkers: ours {@code observatory.standard.timeout}, HAProxy's
 *                     {@code timeout connect} and {@code timeout check} ({@code detection-lab.timeout}, Go syntax,
 *                     default {@code 2s}). At 1 s or less one lost SYN or SYN-ACK fails a probe: Linux
 *                     sends the first retransmission after its initial retransmission timeout, 1 s
 * @param lossDuration how long the packet-loss scenario lasts ({@code detection-lab.loss-duration}, Go syntax, e.g.
 *                     {@code 60s})
 * @param lossPercent  the packet loss of that scenario in each direction, 1-99 % ({@code detection-lab.loss-percent})
 * @param jar          the service jar ({@code detection-lab.jar}, set by the profile)
 * @param workDir      where configuration files, the stats socket and the processes' logs go
 *                     ({@code detection-lab.work-dir}, set by the profile)
 */
record DetectionLab(
        List<String> namespaces,
        List<String> addresses,
        int port,
        List<Path> checkLogs,
        int trials,
        Schedule schedule,
        Duration timeout,
        Duration lossDuration,
        int lossPercent,
        Path jar,
        Path workDir) {

    /** The standard observer's schedules this lab compares against HAProxy. */
    enum Schedule {
        /** Xray's concurrent mode: all selected outbounds at once, the next round an interval after the last answer. */
        XRAY,
        /** Each outbound on its own timer with Envoy's edge intervals (HAProxy's fastinter). */
        PER_OUTBOUND;

        static Schedule of(String value) {
            return switch (value) {
                case "xray" -> XRAY;
                case "per-outbound" -> PER_OUTBOUND;
                default ->
                    throw new IllegalStateException(
                            "detection-lab.schedule: " + value + " (expected: xray or per-outbound)");
            };
        }
    }

    DetectionLab {
        namespaces = List.copyOf(namespaces);
        addresses = List.copyOf(addresses);
        checkLogs = List.copyOf(checkLogs);
        if (namespaces.size() != 2 || addresses.size() != 2 || checkLogs.size() != 2) {
            throw new IllegalStateException("detection-lab.namespaces " + namespaces + ", detection-lab.addresses "
                    + addresses + " and detection-lab.check-logs " + checkLogs + ": expected two each (target A,"
                    + " its neighbour B)");
        }
        if (trials < 1) {
            throw new IllegalStateException("detection-lab.trials: " + trials + " (expected: >= 1)");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalStateException(
                    "detection-lab.timeout: " + GoDuration.format(timeout) + " (expected: > 0)");
        }
        if (lossPercent < 1 || lossPercent > 99) {
            throw new IllegalStateException("detection-lab.loss-percent: " + lossPercent + " (expected: 1-99)");
        }
    }

    /** Reads the lab from the system properties; fails with a pointer to {@code .ci/detection-lab} if one is blank. */
    static DetectionLab fromSystemProperties() {
        Path jar = Path.of(required("detection-lab.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "no service jar at " + jar + ": the detection-lab profile runs after" + " package");
        }
        return new DetectionLab(
                List.of(required("detection-lab.namespaces").split(",")),
                List.of(required("detection-lab.addresses").split(",")),
                Integer.parseInt(required("detection-lab.port")),
                Arrays.stream(required("detection-lab.check-logs").split(","))
                        .map(Path::of)
                        .toList(),
                Integer.parseInt(required("detection-lab.trials")),
                Schedule.of(required("detection-lab.schedule")),
                GoDuration.parse(required("detection-lab.timeout")),
                GoDuration.parse(required("detection-lab.loss-duration")),
                Integer.parseInt(required("detection-lab.loss-percent")),
                jar,
                Path.of(required("detection-lab.work-dir")));
    }

    /**
     * What target A serves besides HTTP, for the fault-kinds scenario, as {@code .ci/detection-lab} wrote it to
     * {@code reach.properties} in the work directory.
     *
     * @param tlsPort    nginx's TLS port: the name {@code goodSni} answered, every other refused
     * @param goodSni    the name served
     * @param refusedSni a name refused ({@code ssl_reject_handshake}: alert {@code unrecognized_name})
     * @param ca         the certificate of {@code goodSni} (self-signed), to trust
     * @param vmessPort  v2ray's VMess port
     * @param vmessId    the id it knows
     */
    record Reach(int tlsPort, String goodSni, String refusedSni, Path ca, int vmessPort, String vmessId) {}

    /** A's TLS and VMess servers. */
    Reach reach() throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(workDir.resolve("reach.properties"))) {
            properties.load(in);
        }
        return new Reach(
                Integer.parseInt(properties.getProperty("tls-port")),
                properties.getProperty("good-sni"),
                properties.getProperty("refused-sni"),
                Path.of(properties.getProperty("ca")),
                Integer.parseInt(properties.getProperty("vmess-port")),
                properties.getProperty("vmess-id"));
    }

    /** Target A's address. */
    String addressA() {
        return addresses.get(0);
    }

    /** Target A's namespace: the target whose faults are timed. */
    String namespaceA() {
        return namespaces.get(0);
    }

    /** Target B's namespace: A's neighbour, black-holed in one scenario. */
    String namespaceB() {
        return namespaces.get(1);
    }

    /** The checks target A answered so far. */
    CheckLog readChecksOfA() throws IOException {
        return CheckLog.read(checkLogs.get(0));
    }

    /** {@code http://<address>:<port>/generate_204} of target 0 (A) or 1 (B). */
    String probeUrl(int target) {
        return "http://" + addresses.get(target) + ":" + port + "/generate_204";
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set: the detection lab runs in"
                    + " network namespaces that .ci/detection-lab builds (as root) before it runs ./mvnw verify"
                    + " -Pdetection-lab; run it with `sudo bash .ci/detection-lab`");
        }
        return value;
    }
}
