package io.observatory.reload;

import io.observatory.config.GoDurationConverter;
import io.observatory.config.GoDurationNumberConverter;
import io.observatory.config.InvalidConfigException;
import io.observatory.config.ObservatoryBindFailureAnalyzer;
import io.observatory.config.ObservatoryBindHandlerAdvisor;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.ObservatoryConfigValidator;
import io.observatory.config.ObservatoryProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * Re-reads the watched configuration files and turns them into a validated {@link ObservatoryConfig} exactly as
 * startup does: the running environment's property sources (command line, environment variables, packaged
 * {@code application.yml}) with those of the watched files replaced by their new content, bound with the same Go
 * duration converters and strict key checks, then validated.
 */
final class ConfigLoader {

    /** How Spring Boot names the property sources it loads from configuration files. */
    private static final String SPRING_CONFIG_DATA = "Config resource";

    private final ConfigurableEnvironment environment;
    private final List<Path> files;
    private final ApplicationConversionService conversion = new ApplicationConversionService();
    private final ObservatoryBindHandlerAdvisor advisor = new ObservatoryBindHandlerAdvisor();

    ConfigLoader(ConfigurableEnvironment environment, List<Path> files) {
        this.environment = environment;
        this.files = List.copyOf(files);
        conversion.addConverter(new GoDurationConverter());
        conversion.addConverter(new GoDurationNumberConverter());
    }

    /**
     * Loads and validates the current content of the files.
     *
     * @param warnings receives the validator's warning lines
     * @throws RejectedConfigException with one line saying what is wrong (property, value, expectation)
     */
    ObservatoryConfig load(Consumer<String> warnings) {
        MutablePropertySources sources = new MutablePropertySources(environment.getPropertySources());
        for (Path file : files) {
            replace(sources, file, read(file));
        }
        Binder binder = new Binder(ConfigurationPropertySources.from(sources),
                new PropertySourcesPlaceholdersResolver(sources), conversion);
        BindHandler strict = advisor.apply(
                new NoUnboundElementsBindHandler(BindHandler.DEFAULT, new UnboundElementsSourceFilter()));
        try {
            ObservatoryProperties properties = binder.bindOrCreate("observatory",
                    Bindable.of(ObservatoryProperties.class), strict);
            return ObservatoryConfigValidator.validate(properties, warnings);
        } catch (BindException e) {
            FailureAnalysis analysis = new ObservatoryBindFailureAnalyzer().analyze(e);
            throw new RejectedConfigException(analysis != null ? analysis.getDescription() : oneLine(e), e);
        } catch (InvalidConfigException e) {
            throw new RejectedConfigException(e.getMessage(), e);
        }
    }

    private static List<PropertySource<?>> read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new RejectedConfigException(file + ": missing or not a regular file", null);
        }
        PropertySourceLoader loader = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".properties")
                ? new PropertiesPropertySourceLoader()
                : new YamlPropertySourceLoader();
        try {
            if (Files.readString(file).isBlank()) {
                throw new RejectedConfigException(file + ": empty; an empty configuration file is taken for a "
                        + "truncated write (to observe nothing, configure no observer explicitly)", null);
            }
            return loader.load(sourceName(file), new FileSystemResource(file));
        } catch (IOException | RuntimeException e) {
            throw new RejectedConfigException(file + ": cannot be read as configuration: " + oneLine(e), e);
        }
    }

    /** Swaps the sources Spring Boot loaded from {@code file} at startup for its new content, in the same place. */
    private static void replace(MutablePropertySources sources, Path file, List<PropertySource<?>> fresh) {
        String marker = "[" + file + "]";
        String anchor = null;
        boolean found = false;
        List<String> stale = new ArrayList<>();
        for (PropertySource<?> source : sources) {
            String name = source.getName();
            if (name.contains(marker) || name.startsWith(sourceName(file))) {
                stale.add(name);
                found = true;
            } else if (anchor == null && (found || name.startsWith(SPRING_CONFIG_DATA))) {
                // Right after the file's old sources; for a file that did not exist at startup, ahead of the
                // packaged configuration, as an external location ranks.
                anchor = name;
            }
        }
        stale.forEach(sources::remove);
        for (PropertySource<?> source : fresh) {
            if (anchor != null) {
                sources.addBefore(anchor, source);
            } else {
                sources.addLast(source);
            }
        }
    }

    private static String sourceName(Path file) {
        return "reloaded config file [" + file + "]";
    }

    private static String oneLine(Throwable e) {
        return String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
