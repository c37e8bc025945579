package io.observatory.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.config.Outbound;
import io.observatory.testing.Configs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;

/** A reload reads the watched files anew and keeps every other source the service started with. */
class ConfigLoaderTest {

    @TempDir
    Path directory;

    private final ObservatoryConfigBinder binder = new ObservatoryConfigBinder(Configs.SECTIONS, name -> null);

    @AfterEach
    void closeBinder() {
        binder.close();
    }

    /**
     * A running environment as Spring Boot leaves it: the command line naming the file, {@code SPRING_APPLICATION_JSON}
     * with the outbounds, the file's content as it was at start-up, and the jar's application.yml (its HTTP port).
     */
    private ConfigLoader loader(Path file) {
        StandardEnvironment running = new StandardEnvironment();
        running.getPropertySources()
                .addFirst(new SimpleCommandLinePropertySource("--spring.config.additional-location=" + file));
        running.getPropertySources()
                .addAfter(
                        "commandLineArgs",
                        new MapPropertySource(
                                "spring.application.json",
                                Map.of(
                                        "observatory.outbounds[0].tag",
                                        "proxy_json",
                                        "observatory.outbounds[0].protocol",
                                        "direct")));
        running.getPropertySources()
                .addLast(new OriginTrackedMapPropertySource(
                        "Config resource 'file [" + file + "]' via location '" + file + "'",
                        Map.of(
                                "observatory.standard.subject-selector[0]",
                                "proxy_",
                                "observatory.standard.probe-interval",
                                "10s")));
        running.getPropertySources()
                .addLast(new OriginTrackedMapPropertySource(
                        "Config resource 'class path "
                                + "resource [application.yml]' via location 'optional:classpath:/'",
                        Map.of("server.port", "8081")));
        return new ConfigLoader(running, List.of(file), binder, new DefaultResourceLoader());
    }

    @Test
    void loadWhenFileChangedThenItsNewContentAndEveryOtherSourceOfTheRunningProcess() throws IOException {
        Path file = Files.writeString(
                directory.resolve("observatory.yml"),
                "observatory:\n  standard:\n    subject-selector: [proxy_]\n    probe-interval: 30s\n");

        ObservatoryConfig config = loader(file).load().config();

        assertThat(config.outbounds()).extracting(Outbound::tag).containsExactly("proxy_json");
        assertThat(config.standard().probeInterval()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void loadWhenTheStateDirectoryIsNoLongerUsableThenTheReloadIsStillApplied() throws IOException {
        Path notADirectory = Files.writeString(directory.resolve("was-a-directory"), "x");
        Path file = Files.writeString(
                directory.resolve("observatory.yml"),
                "observatory:\n  state:\n    directory: " + notADirectory
                        + "\n  standard:\n    subject-selector: [proxy_]\n    probe-interval: 30s\n");

        ObservatoryConfig config = loader(file).load().config();

        assertThat(config.standard().probeInterval())
                .as("applied: the state settings are read at start-up only")
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void loadWhenASettingLeftTheFileThenItsStartUpValueIsGoneToo() throws IOException {
        Path file = Files.writeString(
                directory.resolve("observatory.yml"), "observatory:\n  probe:\n" + "    max-concurrent: 8\n");

        ObservatoryConfig config = loader(file).load().config();

        assertThat(config.standard()).isNull();
        assertThat(config.probe().maxConcurrent()).isEqualTo(8);
    }

    @Test
    void loadWhenFileChangesAServerPortThenAWarningSaysItWaitsForTheNextStart() throws IOException {
        Path file = Files.writeString(
                directory.resolve("observatory.yml"),
                "spring.grpc.server.port: 9191\n"
                        + "server.address: 127.0.0.1\nobservatory:\n  standard:\n    subject-selector: [proxy_]\n");

        assertThat(loader(file).load().warnings())
                .containsExactly(
                        "server.address: 127.0.0.1 takes effect at the next start; (unset) stays in force",
                        "spring.grpc.server.port: 9191 takes effect at the next start; (unset) stays in force");
    }

    @Test
    void loadWhenFileChangesAPortThatWasZeroThenTheWarningNamesThePortBound() throws IOException {
        Path file = Files.writeString(
                directory.resolve("observatory.yml"),
                "spring.grpc.server.port: 9191\nobservatory:\n  standard:\n    subject-selector: [proxy_]\n");
        StandardEnvironment running = new StandardEnvironment();
        running.getPropertySources()
                .addFirst(new SimpleCommandLinePropertySource("--spring.config.additional-location=" + file));
        running.getPropertySources()
                .addLast(new OriginTrackedMapPropertySource(
                        "Config resource 'file [" + file + "]' via location '" + file + "'",
                        Map.of("spring.grpc.server.port", "0", "observatory.standard.subject-selector[0]", "proxy_")));
        running.getPropertySources()
                .addFirst(new MapPropertySource("grpc-server-ports", Map.of("local.grpc.server.port", 41234)));

        assertThat(new ConfigLoader(running, List.of(file), binder, new DefaultResourceLoader())
                        .load()
                        .warnings())
                .contains("spring.grpc.server.port: 9191 takes effect at the next start; 41234 (the port bound for 0)"
                        + " stays in force");
    }

    @Test
    void loadWhenFileChangesTheStateSettingsThenAWarningSaysTheyWaitForTheNextStart() throws IOException {
        Path file = Files.writeString(
                directory.resolve("observatory.yml"),
                "observatory:\n  state:\n" + "    directory: " + directory
                        + "\n    write-interval: 10s\n  standard:\n    subject-selector: [proxy_]\n");

        assertThat(loader(file).load().warnings())
                .contains(
                        "observatory.state.directory: " + directory
                                + " takes effect at the next start; (unset) stays in force",
                        "observatory.state.write-interval: 10s takes effect at the next start; (unset) stays in force");
    }

    @Test
    void loadWhenFileInvalidThenRejectedWithTheOneLineReport() throws IOException {
        Path file = Files.writeString(
                directory.resolve("observatory.yml"), "observatory:\n  standard:\n    probe-interval: 1000\n");

        assertThatThrownBy(() -> loader(file).load())
                .isInstanceOf(RejectedConfigException.class)
                .hasMessage("observatory.standard.probe-interval: 1000 (expected: a duration with a unit, e.g. 10s, "
                        + "1.5s, 2h45m, 300ms)");
    }
}
