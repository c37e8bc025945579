package io.observatory.reload;

import io.observatory.config.ObservatoryProperties;
import io.observatory.config.ReloadSettings;
import io.observatory.observer.ObserverRuntime;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Live configuration reload (on by default, {@code observatory.reload.*}): watches the external configuration files
 * the service was started with and applies changes to outbounds and observer settings without a restart.
 */
@Configuration(proxyBeanMethods = false)
public class ReloadConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ReloadConfiguration.class);

    /**
     * The watcher; it watches nothing (and starts no thread) when reload is off or no external file was given.
     *
     * @throws io.observatory.config.InvalidConfigException for an invalid {@code observatory.reload.interval}
     */
    @Bean
    ConfigFileWatcher configFileWatcher(
            ObservatoryProperties properties, ConfigurableEnvironment environment, ObserverRuntime runtime) {
        ReloadSettings settings = ReloadSettings.from(properties.getReload());
        List<Path> files = ConfigFiles.of(environment);
        if (!settings.enabled() || files.isEmpty()) {
            log.info("live configuration reload off: {}", settings.enabled()
                    ? "no external configuration file (spring.config.location, spring.config.additional-location)"
                    : "observatory.reload.enabled is false");
            return new ConfigFileWatcher(List.of(), settings.interval(), null, runtime);
        }
        return new ConfigFileWatcher(files, settings.interval(), new ConfigLoader(environment, files), runtime);
    }
}
