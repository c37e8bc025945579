package io.observatory.time;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/** Provides the wall clock, the monotonic ticker and the writer every state change runs on. */
@Configuration(proxyBeanMethods = false)
public class TimeConfiguration {

    /** UTC wall clock for timestamps. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Monotonic ticker for RTTs and ages. */
    @Bean
    Ticker ticker() {
        return Ticker.system();
    }

    /**
     * The writer: the one thread on which observers, passive reports, reloads and reactivation change state and on
     * which every snapshot is published. Stopped when the context closes; pending tasks are dropped. The primary
     * {@link Scheduler}: other schedulers (the configuration watcher's) are injected by name.
     */
    @Bean(destroyMethod = "close")
    @Primary
    ExecutorScheduler writer(Ticker ticker) {
        return new ExecutorScheduler("observatory-writer", ticker);
    }
}
