package io.observatory.mesh;

import io.observatory.config.ConfigSection;
import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.hub.ReportCheckpoint;
import io.observatory.mesh.protocol.HubLinks;
import io.observatory.mesh.view.MeshConditions;
import io.observatory.mesh.witness.MeshWitnessRuntime;
import io.observatory.probe.Prober;
import io.observatory.probe.XrayOutbounds;
import io.observatory.snapshot.Checkpoint;
import io.observatory.snapshot.ConditionSource;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Scheduler;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * The mesh's parts ({@code observatory.mesh}): its configuration section, the {@link MeshHub} whose marks go to the
 * verdicts and whose reports outlive a restart, the witness runtime (reporting over gRPC, or to the hub in this
 * process for {@code hub-and-witness}), and their start after the gRPC server. Every part exists whatever the role, so
 * a reload can change the role without a restart; a part the role does not use is idle.
 */
@Configuration(proxyBeanMethods = false)
public class MeshConfiguration {

    /** {@code observatory.mesh}, bound with the rest of the configuration whatever the role. */
    @Bean
    static ConfigSection<MeshSettings> meshConfigSection() {
        return MeshSettings.SECTION;
    }

    /** The hub: its marks are applied on the writer, where it judges. */
    @Bean
    MeshHub meshHub(ObservatoryConfig config, Scheduler writer, Clock clock, ObservationUpdater updater) {
        return new MeshHub(config.section(MeshSettings.SECTION), writer, clock, updater);
    }

    /**
     * The witness's own thread, for fleet fetches, self-checks and reports, which may block; injected by name, the
     * writer being the primary scheduler.
     */
    @Bean(destroyMethod = "close")
    ExecutorScheduler meshWitnessThread(Ticker ticker) {
        return new ExecutorScheduler("mesh-witness", ticker);
    }

    @Bean
    MeshWitnessRuntime meshWitnessRuntime(
            ObservatoryConfig config,
            Scheduler writer,
            @Qualifier("meshWitnessThread") ExecutorScheduler meshWitnessThread,
            Prober prober,
            Clock clock,
            HubLinks links,
            ObjectProvider<XrayOutbounds> core) {
        return new MeshWitnessRuntime(
                config.section(MeshSettings.SECTION),
                writer,
                meshWitnessThread,
                prober,
                clock,
                links,
                core.getIfAvailable());
    }

    /** A hub's witness reports, kept across a restart when warm restart is on. */
    /** The hub's bad states, for incidents; NO_DATA only once {@code no-data-after} has passed since the start. */
    @Bean
    ConditionSource<MeshView> meshConditions(Clock clock) {
        return new MeshConditions(clock.instant());
    }

    @Bean
    Checkpoint meshReportCheckpoint(MeshHub hub) {
        return new ReportCheckpoint(hub);
    }

    /** Starts judging and witnessing after the gRPC server (a dependency), stops them before it. */
    @Bean
    SmartLifecycle meshLifecycle(MeshHub hub, MeshWitnessRuntime witness, List<GrpcServerLifecycle> grpcServers) {
        return new SmartLifecycle() {
            private volatile boolean running;

            @Override
            public void start() {
                hub.start();
                witness.start();
                running = true;
            }

            @Override
            public void stop() {
                witness.stop();
                hub.stop();
                running = false;
            }

            @Override
            public boolean isRunning() {
                return running;
            }
        };
    }
}
