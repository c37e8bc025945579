package io.observatory.mesh.witness;

import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.config.WitnessSettings;
import io.observatory.mesh.protocol.HubLinks;
import io.observatory.probe.Prober;
import io.observatory.probe.XrayOutbounds;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.text.GoDuration;
import io.observatory.time.Scheduler;
import java.net.URI;
import java.time.Clock;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns this instance's {@link MeshWitness} while its mesh role includes {@code witness}: starts it with the service,
 * replaces it when a reload changes what a witness is made of (its role, name, checks, hubs, credential, TLS or report
 * interval) and stops it at shutdown. State is confined to the writer.
 */
public final class MeshWitnessRuntime implements Reconfigurable {

    private static final Logger log = LoggerFactory.getLogger(MeshWitnessRuntime.class);

    private final Scheduler writer;
    private final Scheduler reports;
    private final Prober prober;
    private final Clock clock;
    private final HubLinks links;
    private final @Nullable XrayOutbounds core;
    private MeshSettings settings;
    private boolean started;
    private @Nullable MeshWitness witness;

    /**
     * @param initial the mesh settings at start-up
     * @param writer  the writer
     * @param reports the witness's own thread
     * @param prober  the shared prober
     * @param clock   wall clock
     * @param links   makes the link to the hubs the settings name
     * @param core    carries the entry points given as Xray outbounds; {@code null} when no capability offers a core
     */
    public MeshWitnessRuntime(
            MeshSettings initial,
            Scheduler writer,
            Scheduler reports,
            Prober prober,
            Clock clock,
            HubLinks links,
            @Nullable XrayOutbounds core) {
        this.settings = initial;
        this.writer = writer;
        this.reports = reports;
        this.prober = prober;
        this.clock = clock;
        this.links = links;
        this.core = core;
    }

    /** Starts the witness, if the role has one. */
    public void start() {
        writer.execute(() -> {
            started = true;
            replace(settings);
        });
    }

    /**
     * Stops the witness: its probes and reports end, on the writer, after any reload already queued there, so no
     * reload can start a successor afterwards. A later {@link #start()} starts a new one, which the hubs see as a
     * restarted witness (a new process start, its sequence from 1).
     */
    public void stop() {
        writer.execute(() -> {
            started = false;
            MeshWitness current = witness;
            if (current != null) {
                current.stop();
                witness = null;
            }
        });
    }

    @Override
    public ReloadStage stage() {
        return ReloadStage.FEEDERS;
    }

    @Override
    public void reconfigure(ObservatoryConfig next) {
        MeshSettings mesh = next.section(MeshSettings.SECTION);
        boolean changed = mesh.role() != settings.role()
                || !Objects.equals(mesh.witness(), settings.witness())
                || !mesh.initialReportInterval().equals(settings.initialReportInterval());
        settings = mesh;
        if (started && changed) {
            replace(mesh);
        }
    }

    /**
     * The reading of this witness's server its settings ask for; {@code null}, with one WARN line, where OSHI cannot
     * run (its native access missing or refused).
     */
    private static @Nullable HostMetrics hostMetrics(String name, WitnessSettings self) {
        URI scrape = self.metrics().scrape();
        try {
            return new HostMetrics(
                    name,
                    self.metrics().disk(),
                    scrape == null
                            ? null
                            : new ExporterScrape(scrape, self.metrics().series(), self.checkTimeout()));
        } catch (RuntimeException | LinkageError e) {
            log.warn(
                    "mesh witness {}: cannot read its server's metrics here ({}); its reports go without them",
                    name,
                    e.toString());
            return null;
        }
    }

    private void replace(MeshSettings mesh) {
        MeshWitness current = witness;
        if (current != null) {
            current.stop();
            witness = null;
        }
        WitnessSettings self = mesh.witness();
        if (self == null) {
            return;
        }
        String name = Objects.requireNonNull(self.name(), "validated");
        MeshWitness next = new MeshWitness(
                name,
                new SelfChecks(self),
                self.metrics().enabled() ? hostMetrics(name, self) : null,
                writer,
                reports,
                prober,
                clock,
                links.open(mesh),
                mesh.initialReportInterval(),
                core);
        witness = next;
        next.start();
        log.info(
                "mesh witness {} started: reporting to {} at the interval the hub sets ({} until it answers)",
                name,
                mesh.role().hub() ? "this hub" : self.hubs(),
                GoDuration.format(mesh.initialReportInterval()));
    }
}
