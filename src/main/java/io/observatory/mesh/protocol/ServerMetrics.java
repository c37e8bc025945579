package io.observatory.mesh.protocol;

import org.jspecify.annotations.Nullable;

/**
 * A witness's reading of its own server, taken before each report and sent with it (the seed's "the metrics arrive
 * with the same report"). A value the witness could not read is {@code null}. About 100 bytes.
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
        @Nullable Long tcpConnections) {

    /** A reading with nothing in it: an external vantage point's, or one that could read nothing. */
    public static final ServerMetrics NONE = new ServerMetrics(null, null, null, null, null, null, null, null, null);
}
