package io.observatory.haproxy;

import io.micrometer.core.instrument.MeterRegistry;
import io.observatory.config.ConfigSection;
import io.observatory.config.ObservatoryConfig;
import io.observatory.snapshot.ObservationStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** HAProxy's agent ({@code observatory.haproxy-agent}): the section, always bound; the port, when one is set. */
@Configuration(proxyBeanMethods = false)
public class HaproxyAgentConfiguration {

    /** {@code observatory.haproxy-agent}, bound with the rest of the configuration whether the agent is on or off. */
    @Bean
    static ConfigSection<HaproxyAgentSettings> haproxyAgentConfigSection() {
        return HaproxyAgentSettings.SECTION;
    }

    /** The port, when {@code observatory.haproxy-agent.port} is set. */
    @Bean
    @ConditionalOnProperty(prefix = "observatory.haproxy-agent", name = "port")
    HaproxyAgentServer haproxyAgentServer(ObservatoryConfig config, ObservationStore store, MeterRegistry meters) {
        return new HaproxyAgentServer(config.section(HaproxyAgentSettings.SECTION), store, meters);
    }
}
