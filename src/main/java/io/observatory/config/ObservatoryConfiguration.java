package io.observatory.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Binds {@code observatory.*} (with Go-style durations, from text or YAML numbers) and exposes the validated
 * {@link ObservatoryConfig}.
 * An invalid setting stops startup with a one-line report (see {@link InvalidConfigFailureAnalyzer},
 * {@link ObservatoryBindFailureAnalyzer} and {@link ObservatoryBindHandlerAdvisor}); warnings are logged once at WARN.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ObservatoryProperties.class)
@Import({GoDurationConverter.class, GoDurationNumberConverter.class, ObservatoryBindHandlerAdvisor.class})
public class ObservatoryConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ObservatoryConfiguration.class);

    /**
     * The validated configuration every other component reads.
     *
     * @throws InvalidConfigException when a setting cannot be used
     */
    @Bean
    ObservatoryConfig observatoryConfig(ObservatoryProperties properties) {
        return ObservatoryConfigValidator.validate(properties, warning -> log.warn("{}", warning));
    }
}
