package io.observatory.mesh.protocol;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A witness's reading of its own server, taken before each report and sent with it (the seed's "the metrics arrive
 * with the same report"). A value the witness could not read is {@code null}. About 100 bytes, plus about 100 per
 * extra series.
 *
 * @param cpuUsage                 share of all CPUs busy since the previous reading, 0-1
 * @param load1                    the 1-minute load average
 * @param memoryTotalBytes         physical memory
 * @param memoryAvailableBytes     memory available to new processes without swapping
 * @param diskTotalBytes           size of the file system the witness watches ({@code metrics.disk-path})
 * @param diskFreeBytes            its space available to unprivileged users
 * @param networkInBytesPerSecond  received on every interface but loopback, since the previous reading
 * @param networkOutBytesPerSecond sent on every interface but loopback, since the previous reading
 * @param tcpConnections           established TCP connections, IPv4 and IPv6
 * @param extra                    the series read from a local exporter, at most {@link #MAX_EXTRA}
 */
public record ServerMetrics(
        @Nullable Double cpuUsage,
        @Nullable Double load1,
        @Nullable Long memoryTotalBytes,
        @Nullable Long memoryAvailableBytes,
        @Nullable Long diskTotalBytes,
        @Nullable Long diskFreeBytes,
        @Nullable Double networkInBytesPerSecond,
        @Nullable Double networkOutBytesPerSecond,
        @Nullable Long tcpConnections,
        List<Extra> extra) {

    /** At most this many extra series in one report. */
    public static final int MAX_EXTRA = 32;

    /** At most this many characters in an extra series' name, labels included. */
    public static final int MAX_EXTRA_NAME = 200;

    /** A reading with nothing in it: an external vantage point's, or one that could read nothing. */
    public static final ServerMetrics NONE =
            new ServerMetrics(null, null, null, null, null, null, null, null, null, List.of());

    public ServerMetrics {
        extra = List.copyOf(extra);
    }

    /**
     * One series read from a local exporter.
     *
     * @param name  the series as Prometheus writes it, e.g. {@code xray_connections} or
     *              {@code node_filesystem_avail_bytes{mountpoint="/"}}
     * @param value its value
     */
    public record Extra(String name, double value) {

        public Extra {
            Objects.requireNonNull(name, "name");
        }
    }
}
