package io.observatory.probe;

import io.observatory.config.ObservatoryConfig;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.netty.resources.LoopResources;

/** Provides the prober and the event loops its connections run on. */
@Configuration(proxyBeanMethods = false)
public class ProbeConfiguration {

    /**
     * The probe event loops: one per core (reactor-netty's default count), daemon threads, disposed at shutdown.
     * Kept apart from the gRPC server's loops so a probe storm cannot delay API calls.
     */
    @Bean(destroyMethod = "dispose")
    LoopResources probeLoops() {
        return LoopResources.create("probe", LoopResources.DEFAULT_IO_WORKER_COUNT, true);
    }

    /**
     * The prober the observers use: reactor-netty probes with the start-up probe settings and Xray's headers for the
     * Chrome version Xray would announce today, its lag behind the newest drawn once per process.
     */
    @Bean
    Prober prober(ObservatoryConfig config, LoopResources probeLoops, Clock clock, Ticker ticker) {
        return new ReactorNettyProber(
                config.probe(),
                ProbeHeaders.xray(
                        config.probe().headers(),
                        clock.instant(),
                        ThreadLocalRandom.current().nextDouble()),
                probeLoops,
                clock,
                ticker);
    }
}
