package io.observatory.reload;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.config.Outbound;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The watcher's check loop on fake time with real files, loaded as the service loads them: new content is applied
 * once it stayed the same for one more check, broken content is rejected once, a touch is no change.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigFileWatcherTest {

    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final String REJECTED = "configuration change rejected, the running configuration stays in force";

    @TempDir
    Path directory;

    private final FakeScheduler scheduler = new FakeScheduler();
    private final ObservatoryConfigBinder binder = new ObservatoryConfigBinder(Configs.SECTIONS, name -> null);
    private final List<List<String>> applied = new ArrayList<>();
    private Path file;
    private ConfigFileWatcher watcher;

    @BeforeEach
    void startWatching() throws IOException {
        file = directory.resolve("application.yml");
        write("a");
        watcher = watcher(List.of(file));
        watcher.start();
        scheduler.runDue();
    }

    @AfterEach
    void closeBinder() {
        binder.close();
    }

    private ConfigFileWatcher watcher(List<Path> files) {
        StandardEnvironment running = new StandardEnvironment();
        running.getPropertySources().addFirst(new SimpleCommandLinePropertySource("--spring.config.location=" + file));
        return new ConfigFileWatcher(
                files,
                unused -> List.of(),
                Configs.of(),
                INTERVAL,
                scheduler,
                new ConfigLoader(running, files, binder, new DefaultResourceLoader()),
                this::applied);
    }

    private void applied(ObservatoryConfig config) {
        assertThat(scheduler.inSchedulerThread())
                .as("changes handed on from the watcher's scheduler")
                .isTrue();
        applied.add(config.outbounds().stream().map(Outbound::tag).toList());
    }

    /** Writes a configuration of direct outbounds with these tags. */
    private void write(String... tags) throws IOException {
        StringBuilder yaml = new StringBuilder("observatory:\n  outbounds:\n");
        for (String tag : tags) {
            yaml.append("    - { tag: ").append(tag).append(", protocol: direct }\n");
        }
        Files.writeString(file, yaml);
    }

    @Test
    void checkWhenContentChangedThenAppliedOnceItStayedTheSameForOneMoreCheck() throws IOException {
        write("a", "b");

        scheduler.advance(INTERVAL);
        assertThat(applied).as("caught changing: maybe half-written").isEmpty();
        scheduler.advance(INTERVAL);
        assertThat(applied).containsExactly(List.of("a", "b"));
        scheduler.advance(INTERVAL.multipliedBy(4));
        assertThat(applied).hasSize(1);
    }

    @Test
    void checkWhenContentKeepsChangingThenOnlyTheSettledContentIsApplied() throws IOException {
        write("a", "b");
        scheduler.advance(INTERVAL);
        write("a", "b", "c");
        scheduler.advance(INTERVAL);
        assertThat(applied).isEmpty();

        scheduler.advance(INTERVAL);

        assertThat(applied).containsExactly(List.of("a", "b", "c"));
    }

    @Test
    void checkWhenTouchedWithoutChangeThenNothingIsApplied() throws IOException {
        write("a");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(60)));

        scheduler.advance(INTERVAL.multipliedBy(4));

        assertThat(applied).isEmpty();
    }

    @Test
    void checkWhenNewContentInvalidThenRejectedOnceAndTheFixIsApplied(CapturedOutput output) throws IOException {
        Files.writeString(
                file, "observatory:\n  outbounds:\n    - { tag: a, protocol: socks, address: x, port: 70000 }\n");

        scheduler.advance(INTERVAL.multipliedBy(6));

        assertThat(applied).isEmpty();
        assertThat(output.getOut().lines().filter(line -> line.contains(REJECTED)))
                .singleElement()
                .asString()
                .endsWith(REJECTED + ": observatory.outbounds[0].port: 70000 (expected: 1-65535)");
        write("a", "fixed");
        scheduler.advance(INTERVAL.multipliedBy(2));
        assertThat(applied).containsExactly(List.of("a", "fixed"));
    }

    @Test
    void checkWhenFileDisappearsThenRejectedWithOneLineAndNothingIsApplied(CapturedOutput output) throws IOException {
        Files.delete(file);

        scheduler.advance(INTERVAL.multipliedBy(4));

        assertThat(applied).isEmpty();
        assertThat(output.getOut().lines().filter(line -> line.contains(REJECTED)))
                .singleElement()
                .asString()
                .endsWith(REJECTED + ": " + file + ": missing or not a regular file");
    }

    @Test
    void stopWhenStoppedThenNoCheckIsLeftScheduled() throws IOException {
        watcher.stop();
        scheduler.runDue();
        write("a", "b");

        scheduler.advance(INTERVAL.multipliedBy(4));

        assertThat(watcher.isRunning()).isFalse();
        assertThat(scheduler.pendingTasks()).isZero();
        assertThat(applied).isEmpty();
    }

    @Test
    void startWhenNoFileToWatchThenNothingRuns() {
        FakeScheduler idle = new FakeScheduler();
        ConfigFileWatcher none = new ConfigFileWatcher(
                List.of(),
                unused -> List.of(),
                Configs.of(),
                INTERVAL,
                idle,
                new ConfigLoader(new StandardEnvironment(), List.of(), binder, new DefaultResourceLoader()),
                this::applied);

        none.start();

        assertThat(none.isRunning()).isFalse();
        assertThat(idle.pendingTasks()).isZero();
    }
}
