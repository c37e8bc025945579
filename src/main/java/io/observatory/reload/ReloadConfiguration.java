package io.observatory.reload;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.config.ReloadSettings;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Scheduler;
import io.observatory.time.Ticker;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * Live configuration reload (on by default, {@code observatory.reload.*}): watches the external configuration files
 * the service was started with, loads a changed one as start-up did, and hands each valid configuration to every
 * {@link Reconfigurable} on the writer, stage by stage ({@link ReloadStage}).
 */
@Configuration(proxyBeanMethods = false)
public class ReloadConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ReloadConfiguration.class);

    /** The watcher's own thread, started only once there is something to watch. */
    @Bean(destroyMethod = "close")
    ExecutorScheduler configWatcherScheduler(Ticker ticker) {
        return new ExecutorScheduler("config-watcher", ticker);
    }

    /** The watcher; it watches nothing (and starts no thread) when reload is off or no external file was given. */
    @Bean
    ConfigFileWatcher configFileWatcher(
            ObservatoryConfig config,
            ConfigurableEnvironment environment,
            ObservatoryConfigBinder binder,
            ResourceLoader resources,
            @Qualifier("configWatcherScheduler") Scheduler watcher,
            Scheduler writer,
            ObjectProvider<Reconfigurable> targets) {
        ReloadSettings settings = config.reload();
        List<Path> files = ConfigFiles.of(environment);
        Function<ObservatoryConfig, List<Path>> sectionFiles = binder::files;
        if (!settings.enabled() || (files.isEmpty() && binder.files(config).isEmpty())) {
            log.info(
                    "live configuration reload off: {}",
                    settings.enabled()
                            ? "no external configuration file (spring.config.location, spring.config.additional-location)"
                            : "observatory.reload.enabled is false");
            files = List.of();
            sectionFiles = unused -> List.of();
        }
        return new ConfigFileWatcher(
                files,
                sectionFiles,
                config,
                settings.interval(),
                watcher,
                new ConfigLoader(environment, files, binder, resources),
                next -> writer.execute(() -> reconfigureAll(targets.stream().toList(), next)));
    }

    /**
     * Tells the running environment which port the gRPC server bound ({@code local.grpc.server.port}, as Spring Boot
     * says {@code local.server.port} of its HTTP server), so that a reload that changes the gRPC port names the port in
     * force rather than a configured 0.
     */
    @Bean
    ApplicationListener<GrpcServerStartedEvent> grpcPortProperty(ConfigurableEnvironment environment) {
        return event -> environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "grpc-server-ports", Map.of(ConfigLoader.LOCAL_GRPC_PORT, event.getPort())));
    }

    /**
     * Hands {@code next} to every target, stage by stage; a target that fails is logged and the others still take
     * it. Writer only.
     */
    static void reconfigureAll(List<Reconfigurable> targets, ObservatoryConfig next) {
        targets.stream()
                .sorted(Comparator.comparing(Reconfigurable::stage))
                .forEach(target -> reconfigure(target, next));
    }

    private static void reconfigure(Reconfigurable target, ObservatoryConfig next) {
        try {
            target.reconfigure(next);
        } catch (RuntimeException e) {
            log.error("{} failed to apply the new configuration; the others still take it", target, e);
        }
    }
}
