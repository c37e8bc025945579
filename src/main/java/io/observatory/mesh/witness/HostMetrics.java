package io.observatory.mesh.witness;

import io.observatory.mesh.protocol.ServerMetrics;
import java.io.IOException;
import java.net.SocketException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.GlobalMemory;
import oshi.hardware.HardwareAbstractionLayer;
import oshi.hardware.NetworkIF;
import oshi.software.os.InternetProtocolStats;

/**
 * A witness's reading of its own server for its self-report, with OSHI: CPU usage between two readings and the load
 * average ({@code /proc/stat}, {@code /proc/loadavg} on Linux), memory ({@code /proc/meminfo}), the byte counters of
 * every interface but loopback, the kernel's count of established TCP connections ({@code /proc/net/snmp}), and the
 * watched file system through the JDK. Inside a network namespace the interfaces and connections are the
 * namespace's, as its server sees them. Rates are taken between two readings, so the first has no CPU usage and no
 * network rate. The chosen series of a local exporter come from {@link ExporterScrape}. A value that cannot be read
 * is left out and logged once at WARN.
 *
 * <p>Confined to the witness's report thread. Costs one reading per report interval: a few small files of
 * {@code /proc} and {@code /sys}.
 */
final class HostMetrics implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HostMetrics.class);

    private final String witness;
    private final Path diskPath;
    private final CentralProcessor processor;
    private final GlobalMemory memory;
    private final HardwareAbstractionLayer hardware;
    private final InternetProtocolStats protocols;
    private final @Nullable ExporterScrape exporter;
    private final Set<String> warned = new HashSet<>();
    private long @Nullable [] previousTicks;
    private long previousAtNanos;
    private long previousIn = -1;
    private long previousOut = -1;

    /**
     * @param witness  the witness's name, for its log lines
     * @param diskPath a path on the file system to report ({@code observatory.mesh.witness.metrics.disk-path})
     * @param exporter reads the chosen series of a local exporter; {@code null} for none
     */
    HostMetrics(String witness, Path diskPath, @Nullable ExporterScrape exporter) {
        this.witness = witness;
        this.diskPath = diskPath;
        this.exporter = exporter;
        SystemInfo system = new SystemInfo();
        this.hardware = system.getHardware();
        this.processor = hardware.getProcessor();
        this.memory = hardware.getMemory();
        this.protocols = system.getOperatingSystem().getInternetProtocolStats();
    }

    /** Reads the server now; {@code nowNanos} is the report thread's monotonic time, for the rates. */
    ServerMetrics read(long nowNanos) {
        double seconds = previousTicks == null ? 0 : (nowNanos - previousAtNanos) / 1e9;
        Double cpu = value("CPU usage", () -> {
            long[] ticks = processor.getSystemCpuLoadTicks();
            long[] before = previousTicks;
            previousTicks = ticks;
            return before == null ? null : processor.getSystemCpuLoadBetweenTicks(before);
        });
        Double load1 = value("load average", () -> {
            double load = processor.getSystemLoadAverage(1)[0];
            return load < 0 ? null : load;
        });
        Long memoryTotal = value("memory", memory::getTotal);
        Long memoryAvailable = value("memory", memory::getAvailable);
        FileStore store = value("disk " + diskPath, () -> {
            try {
                return Files.getFileStore(diskPath);
            } catch (IOException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        });
        Long diskTotal = store == null ? null : value("disk " + diskPath, () -> space(store, true));
        Long diskFree = store == null ? null : value("disk " + diskPath, () -> space(store, false));
        long[] traffic = value("network counters", this::traffic);
        Double in = null;
        Double out = null;
        if (traffic != null) {
            if (previousIn >= 0 && seconds > 0 && traffic[0] >= previousIn && traffic[1] >= previousOut) {
                in = (traffic[0] - previousIn) / seconds;
                out = (traffic[1] - previousOut) / seconds;
            }
            previousIn = traffic[0];
            previousOut = traffic[1];
        }
        Long tcp = value("TCP connections", () -> protocols.getTCPv4Stats().getConnectionsEstablished());
        List<ServerMetrics.Extra> extra = exporter == null ? null : value("the exporter's series", exporter::read);
        previousAtNanos = nowNanos;
        return new ServerMetrics(
                cpu,
                load1,
                memoryTotal,
                memoryAvailable,
                diskTotal,
                diskFree,
                in,
                out,
                tcp,
                extra == null ? List.of() : extra);
    }

    /** Stops the exporter's scrape thread, if any. */
    @Override
    public void close() {
        if (exporter != null) {
            exporter.close();
        }
    }

    /** Bytes received and sent on every interface but loopback, since each came up. */
    private long[] traffic() {
        long received = 0;
        long sent = 0;
        for (NetworkIF network : hardware.getNetworkIFs(true)) {
            try {
                if (network.queryNetworkInterface().isLoopback()) {
                    continue;
                }
            } catch (SocketException e) {
                throw new IllegalStateException(network.getName() + ": " + e.getMessage(), e);
            }
            received += network.getBytesRecv();
            sent += network.getBytesSent();
        }
        return new long[] {received, sent};
    }

    private static long space(FileStore store, boolean total) {
        try {
            return total ? store.getTotalSpace() : store.getUsableSpace();
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** {@code read}'s value, or {@code null} (logged once per kind) when it fails. */
    private <T> @Nullable T value(String what, Supplier<@Nullable T> read) {
        try {
            return read.get();
        } catch (RuntimeException | LinkageError e) {
            // LinkageError: OSHI's native access (JNA) missing or refused on this system.
            if (warned.add(what)) {
                log.warn(
                        "mesh witness {}: cannot read {} for its self-report ({}); its reports go without it",
                        witness,
                        what,
                        e.toString());
            }
            return null;
        }
    }
}
