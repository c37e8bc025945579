package io.observatory.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.ObservatoryApplication;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole service started with an external configuration file (as the Helm chart mounts it), edited while it runs:
 * outbounds come and go without a restart, statuses of kept outbounds survive, and a broken edit is rejected while
 * the running configuration keeps working.
 */
@ExtendWith(OutputCaptureExtension.class)
class LiveReloadIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private TestTarget target;
    private Path config;
    private ConfigurableApplicationContext service;

    @BeforeEach
    void start() throws IOException {
        target = TestTarget.http();
        config = dir.resolve("application.yml");
        write(List.of("p-keep", "p-old"), "200ms");
        service = new SpringApplicationBuilder(ObservatoryApplication.class)
                .run(
                        "--spring.grpc.server.port=0",
                        "--server.port=0",
                        "--spring.config.additional-location=" + config,
                        "--observatory.reload.interval=100ms");
    }

    @AfterEach
    void stop() {
        service.close();
        target.close();
    }

    private void write(List<String> tags, String interval) throws IOException {
        StringBuilder yaml = new StringBuilder("observatory:\n  outbounds:\n");
        for (String tag : tags) {
            yaml.append("    - tag: ")
                    .append(tag)
                    .append("\n      protocol: direct\n      probe-url: ")
                    .append(target.url("/generate_204"))
                    .append('\n');
        }
        yaml.append("  standard:\n    subject-selector: [p-]\n    enable-concurrency: true\n")
                .append("    probe-interval: ")
                .append(interval)
                .append('\n');
        replace(yaml.toString());
    }

    /** Replaces the file the way kubelet and most editors do: a new file renamed over the old one. */
    private void replace(String content) throws IOException {
        Path fresh = dir.resolve("application.yml.tmp");
        Files.writeString(fresh, content);
        Files.move(fresh, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private List<String> observedTags() {
        return service.getBean(ObservationStore.class).current().observed().stream()
                .map(OutboundHealth::tag)
                .toList();
    }

    private OutboundStatus status(String tag) {
        return service.getBean(ObservationStore.class)
                .current()
                .get(tag)
                .orElseThrow()
                .probe();
    }

    @Test
    void editWhenOutboundAddedAndRemovedThenObservationFollowsWithoutRestart() throws IOException {
        await().atMost(WAIT).until(() -> observedTags().equals(List.of("p-keep", "p-old")));
        long keptSince = status("p-keep").lastSeen().getEpochSecond();

        write(List.of("p-keep", "p-new"), "200ms");

        await().atMost(WAIT).until(() -> observedTags().equals(List.of("p-keep", "p-new")));
        assertThat(status("p-new").alive()).isTrue();
        assertThat(status("p-keep").lastSeen().getEpochSecond()).isGreaterThanOrEqualTo(keptSince);
    }

    @Test
    void editWhenObserverSettingsChangeThenObserverRestartsKeepingStatuses(CapturedOutput output) throws IOException {
        await().atMost(WAIT).until(() -> observedTags().equals(List.of("p-keep", "p-old")));

        write(List.of("p-keep", "p-old"), "300ms");

        await().atMost(WAIT).until(() -> output.getOut().contains("observer restarted with new settings"));
        assertThat(observedTags()).containsExactly("p-keep", "p-old");
        assertThat(status("p-keep").alive()).isTrue();
    }

    @Test
    void editWhenInvalidThenRejectedWithOneLineAndRunningConfigurationKeepsWorking(CapturedOutput output)
            throws IOException {
        await().atMost(WAIT).until(() -> observedTags().equals(List.of("p-keep", "p-old")));

        replace(
                "observatory:\n  outbounds:\n    - { tag: p-broken, protocol: socks, address: 127.0.0.1, port: 70000 }\n"
                        + "  standard:\n    subject-selector: [p-]\n");

        await().atMost(WAIT).until(() -> output.getOut().contains("configuration change rejected"));
        assertThat(output.getOut())
                .contains("configuration change rejected, the running configuration stays in "
                        + "force: observatory.outbounds[0].port: 70000 (expected: 1-65535)");
        long before = status("p-keep").lastTry().toEpochMilli();
        await().atMost(WAIT).until(() -> status("p-keep").lastTry().toEpochMilli() > before);
        assertThat(observedTags()).containsExactly("p-keep", "p-old");

        write(List.of("p-fixed"), "200ms");
        await().atMost(WAIT).until(() -> observedTags().equals(List.of("p-fixed")));
    }

    @Test
    void editWhenFileEmptiedThenTakenForATruncatedWriteAndRejected(CapturedOutput output) throws IOException {
        await().atMost(WAIT).until(() -> observedTags().equals(List.of("p-keep", "p-old")));

        replace("\n");

        await().atMost(WAIT)
                .until(() -> output.getOut()
                        .contains(config + ": empty; an empty configuration file is " + "taken for a truncated write"));
        long before = status("p-keep").lastTry().toEpochMilli();
        await().atMost(WAIT).until(() -> status("p-keep").lastTry().toEpochMilli() > before);
        assertThat(observedTags()).containsExactly("p-keep", "p-old");
    }

    @Test
    void editWhenFileDeletedThenRejectedAndObservationKept(CapturedOutput output) throws IOException {
        await().atMost(WAIT).until(() -> observedTags().equals(List.of("p-keep", "p-old")));

        Files.delete(config);

        await().atMost(WAIT).until(() -> output.getOut().contains(config + ": missing or not a regular file"));
        long before = status("p-keep").lastTry().toEpochMilli();
        await().atMost(WAIT).until(() -> status("p-keep").lastTry().toEpochMilli() > before);
        assertThat(observedTags()).containsExactly("p-keep", "p-old");
    }
}
