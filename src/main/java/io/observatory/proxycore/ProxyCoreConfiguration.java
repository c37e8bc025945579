package io.observatory.proxycore;

import io.observatory.config.ObservatoryConfig;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Scheduler;
import io.observatory.time.Ticker;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The supervised proxy core ({@code observatory.core}): its section, always bound, and its supervisor. */
@Configuration(proxyBeanMethods = false)
public class ProxyCoreConfiguration {

    /** {@code observatory.core}, bound with the rest of the configuration whether a core is set or not. */
    @Bean
    static ProxyCoreSection proxyCoreSection() {
        return new ProxyCoreSection(new CoreLayouts());
    }

    /** The supervisor's thread: process starts, stops and restarts never run on the writer. */
    @Bean(destroyMethod = "close")
    ExecutorScheduler proxyCoreScheduler(Ticker ticker) {
        return new ExecutorScheduler("proxy-core", ticker);
    }

    /** Supervises the core; does nothing while {@code observatory.core} is not set. */
    @Bean
    ProxyCoreSupervisor proxyCoreSupervisor(
            ProxyCoreSection section, ObservatoryConfig config, @Qualifier("proxyCoreScheduler") Scheduler scheduler) {
        return new ProxyCoreSupervisor(section, config, scheduler);
    }
}
