package io.observatory.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Binds and validates {@code observatory.*} at start-up with the {@link ObservatoryConfigBinder} that reloads use too,
 * and exposes the result; a bad value stops start-up with one line ({@link ConfigFailureAnalyzer}), warnings are
 * logged once at WARN. Also checks the servers' ports ({@link ServerPortsValidator}) and registers the Go duration
 * converter for the application's other configuration properties, so that {@code spring.*} durations accept Go
 * syntax as well.
 */
@Configuration(proxyBeanMethods = false)
@Import(GoDurationConverter.class)
public class ObservatoryConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ObservatoryConfiguration.class);

    /**
     * Checks the servers' ports as Spring Boot binds their settings, before either server starts; infrastructure,
     * since the post-processor that binds configuration properties needs it before other beans exist.
     */
    @Bean("configurationPropertiesValidator")
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static ServerPortsValidator serverPortsValidator() {
        return new ServerPortsValidator();
    }

    /**
     * The binder of start-up and of every reload, of the core's settings and every capability's section; its
     * validation reads the process's environment variables.
     */
    @Bean(destroyMethod = "close")
    ObservatoryConfigBinder observatoryConfigBinder(ObjectProvider<ConfigSection<?>> sections) {
        return new ObservatoryConfigBinder(sections.orderedStream().toList());
    }

    /**
     * The configuration the service starts with; later ones come from {@code reload}.
     *
     * @throws InvalidConfigException when a setting cannot be used
     */
    @Bean
    ObservatoryConfig observatoryConfig(ObservatoryConfigBinder binder, ConfigurableEnvironment environment) {
        ObservatoryConfigBinder.Bound bound = binder.bind(environment);
        bound.warnings().forEach(warning -> log.warn("{}", warning));
        return bound.config();
    }
}
