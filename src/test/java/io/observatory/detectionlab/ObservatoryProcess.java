package io.observatory.detectionlab;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.HealthState;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.OutboundObservation;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service as it is deployed: the jar in its own JVM in the root namespace, configured by a file of this lab
 * ({@code --spring.config.additional-location}), its gRPC and management ports on 127.0.0.1. Verdicts are read as a
 * balancer reads them, with {@code observatory.v1} GetObservation; probe counts from {@code /actuator/prometheus}.
 * Its output goes to {@code <work-dir>/observatory.log}.
 */
final class ObservatoryProcess implements AutoCloseable {

    /** Small and quick to start: it shares two cores with HAProxy, Maven and the test. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private static final Duration CALL_LIMIT = Duration.ofSeconds(5);
    private static final int TAIL_LINES = 30;
    /** {@code observatory_probe_results_total{error_kind="…",outbound="…",outcome="…",} 12.0}. */
    private static final Pattern RESULTS =
            Pattern.compile("(?m)^observatory_probe_results_total\\{([^}]*)} ([0-9.E]+)$");

    private static final Pattern ERROR_KIND = Pattern.compile("error_kind=\"([^\"]*)\"");

    private final Process process;
    private final Path log;
    private final ManagedChannel channel;
    private final URI prometheus;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(CALL_LIMIT).build();

    private ObservatoryProcess(Process process, Path log, ManagedChannel channel, URI prometheus) {
        this.process = process;
        this.log = log;
        this.channel = channel;
        this.prometheus = prometheus;
    }

    /**
     * Writes {@code observatory} (the YAML of the {@code observatory:} section, indented by two) with the ports into
     * {@code <work-dir>/observatory.yml} and starts the jar on it.
     */
    static ObservatoryProcess start(Path jar, Path workDir, String observatory) throws IOException {
        int grpcPort = LoopbackPorts.free();
        int managementPort = LoopbackPorts.free();
        Path config = workDir.resolve("observatory.yml");
        Files.writeString(
                config,
                "observatory:\n" + observatory
                        + "spring:\n  grpc:\n    server:\n      address: 127.0.0.1\n      port: " + grpcPort + "\n"
                        + "server:\n  address: 127.0.0.1\n  port: " + managementPort + "\n");
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-jar", jar.toString(), "--spring.config.additional-location=file:" + config));
        Path log = workDir.resolve("observatory.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.getOutputStream().close();
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", grpcPort)
                .usePlaintext()
                .build();
        return new ObservatoryProcess(
                process, log, channel, URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"));
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * The verdict now of every outbound whose tag starts with {@code tagPrefix}, by tag (GetObservation with a 5 s
     * deadline).
     *
     * @throws io.grpc.StatusRuntimeException while the service is not serving yet, or on a failed call
     */
    Map<String, HealthState> verdicts(String tagPrefix) {
        Map<String, HealthState> verdicts = new LinkedHashMap<>();
        for (OutboundObservation outbound : ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(CALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                .getObservation(GetObservationRequest.newBuilder()
                        .addTagPrefixes(tagPrefix)
                        .build())
                .getOutboundsList()) {
            verdicts.put(outbound.getTag(), outbound.getVerdict());
        }
        return verdicts;
    }

    /** The error reason of the last probe of the outbound {@code tag}; empty after a success. */
    String lastError(String tag) {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(CALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                .getObservation(
                        GetObservationRequest.newBuilder().addTagPrefixes(tag).build())
                .getOutboundsList()
                .stream()
                .filter(outbound -> outbound.getTag().equals(tag))
                .findFirst()
                .map(outbound -> outbound.getLastProbe().getErrorReason())
                .orElse("(no such outbound)");
    }

    /** Completed probes of every outbound so far, from {@code observatory_probe_results_total}. */
    long probesCompleted() throws IOException, InterruptedException {
        long total = 0;
        Matcher matcher = RESULTS.matcher(scrape());
        while (matcher.find()) {
            total += (long) Double.parseDouble(matcher.group(2));
        }
        return total;
    }

    /**
     * Completed probes of outbound {@code tag} so far by error kind as the service labels them ({@code none} for the
     * successful ones, e.g. {@code connect_timeout}), from {@code observatory_probe_results_total}.
     */
    Map<String, Long> probes(String tag) throws IOException, InterruptedException {
        Map<String, Long> probes = new TreeMap<>();
        Matcher matcher = RESULTS.matcher(scrape());
        while (matcher.find()) {
            String labels = matcher.group(1);
            Matcher kind = ERROR_KIND.matcher(labels);
            if (labels.contains("outbound=\"" + tag + "\"") && kind.find()) {
                probes.merge(kind.group(1), (long) Double.parseDouble(matcher.group(2)), Long::sum);
            }
        }
        return probes;
    }

    private String scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(prometheus).timeout(CALL_LIMIT).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(prometheus + " answered " + response.statusCode());
        }
        return response.body();
    }

    /** E.g. {@code observatory (pid 4711, exited 1)}, with the last lines of its log. */
    String describeWithLog() {
        String state = process.isAlive() ? "running" : "exited " + process.exitValue();
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            lines = List.of("(cannot read " + log + ": " + e + ")");
        }
        return "observatory (pid " + process.pid() + ", " + state + "), last lines of " + log + ":\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }

    /** Closes the channel; SIGTERM, up to 15 s for a graceful stop, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow();
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
