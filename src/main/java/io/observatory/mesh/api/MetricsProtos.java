package io.observatory.mesh.api;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.observatory.mesh.protocol.ServerMetrics;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A server's metrics between {@link ServerMetrics} and the wire's {@code observatory.mesh.v1.ServerMetrics}: a value
 * the witness could not read is absent on the wire and {@code null} here, never 0.
 */
final class MetricsProtos {

    private MetricsProtos() {}

    /** {@code metrics} as it goes on the wire; empty for {@link ServerMetrics#NONE}. */
    static io.observatory.mesh.api.v1.ServerMetrics message(ServerMetrics metrics) {
        io.observatory.mesh.api.v1.ServerMetrics.Builder message =
                io.observatory.mesh.api.v1.ServerMetrics.newBuilder();
        if (metrics.cpuUsage() != null) {
            message.setCpuUsage(metrics.cpuUsage());
        }
        if (metrics.load1() != null) {
            message.setLoad1(metrics.load1());
        }
        if (metrics.memoryTotalBytes() != null) {
            message.setMemoryTotalBytes(metrics.memoryTotalBytes());
        }
        if (metrics.memoryAvailableBytes() != null) {
            message.setMemoryAvailableBytes(metrics.memoryAvailableBytes());
        }
        if (metrics.diskTotalBytes() != null) {
            message.setDiskTotalBytes(metrics.diskTotalBytes());
        }
        if (metrics.diskFreeBytes() != null) {
            message.setDiskFreeBytes(metrics.diskFreeBytes());
        }
        if (metrics.networkInBytesPerSecond() != null) {
            message.setNetworkInBytesPerSecond(metrics.networkInBytesPerSecond());
        }
        if (metrics.networkOutBytesPerSecond() != null) {
            message.setNetworkOutBytesPerSecond(metrics.networkOutBytesPerSecond());
        }
        if (metrics.tcpConnections() != null) {
            message.setTcpConnections(metrics.tcpConnections());
        }
        metrics.extra()
                .forEach(extra -> message.addExtra(io.observatory.mesh.api.v1.ExtraMetric.newBuilder()
                        .setName(extra.name())
                        .setValue(extra.value())));
        return message.build();
    }

    /**
     * The metrics of a report.
     *
     * @throws StatusRuntimeException {@code INVALID_ARGUMENT} naming the field when a value is negative, not finite,
     *                                or a CPU usage above 1; when there are more than {@value ServerMetrics#MAX_EXTRA}
     *                                extra series, or one's name is empty or longer than
     *                                {@value ServerMetrics#MAX_EXTRA_NAME} characters, or its value not finite
     */
    static ServerMetrics read(io.observatory.mesh.api.v1.ServerMetrics message) {
        if (message.getExtraCount() > ServerMetrics.MAX_EXTRA) {
            throw invalid("metrics.extra", message.getExtraCount() + " series", "at most " + ServerMetrics.MAX_EXTRA);
        }
        List<ServerMetrics.Extra> extra = new ArrayList<>(message.getExtraCount());
        for (int i = 0; i < message.getExtraCount(); i++) {
            io.observatory.mesh.api.v1.ExtraMetric series = message.getExtra(i);
            String name = series.getName();
            if (name.isEmpty()
                    || name.length() > ServerMetrics.MAX_EXTRA_NAME
                    || name.chars().anyMatch(Character::isISOControl)) {
                throw invalid(
                        "metrics.extra[" + i + "].name",
                        name.length() + " characters",
                        "1 to " + ServerMetrics.MAX_EXTRA_NAME + " characters, no control characters");
            }
            if (!Double.isFinite(series.getValue())) {
                throw invalid("metrics.extra[" + i + "].value", series.getValue(), "a finite number");
            }
            extra.add(new ServerMetrics.Extra(name, series.getValue()));
        }
        return new ServerMetrics(
                message.hasCpuUsage() ? share("metrics.cpu_usage", message.getCpuUsage()) : null,
                message.hasLoad1() ? amount("metrics.load1", message.getLoad1()) : null,
                message.hasMemoryTotalBytes()
                        ? bytes("metrics.memory_total_bytes", message.getMemoryTotalBytes())
                        : null,
                message.hasMemoryAvailableBytes()
                        ? bytes("metrics.memory_available_bytes", message.getMemoryAvailableBytes())
                        : null,
                message.hasDiskTotalBytes() ? bytes("metrics.disk_total_bytes", message.getDiskTotalBytes()) : null,
                message.hasDiskFreeBytes() ? bytes("metrics.disk_free_bytes", message.getDiskFreeBytes()) : null,
                message.hasNetworkInBytesPerSecond()
                        ? amount("metrics.network_in_bytes_per_second", message.getNetworkInBytesPerSecond())
                        : null,
                message.hasNetworkOutBytesPerSecond()
                        ? amount("metrics.network_out_bytes_per_second", message.getNetworkOutBytesPerSecond())
                        : null,
                message.hasTcpConnections() ? bytes("metrics.tcp_connections", message.getTcpConnections()) : null,
                extra);
    }

    private static double share(String field, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw invalid(field, value, "0 to 1");
        }
        return value;
    }

    private static double amount(String field, double value) {
        if (!(value >= 0 && Double.isFinite(value))) {
            throw invalid(field, value, "a finite number >= 0");
        }
        return value;
    }

    private static long bytes(String field, long value) {
        if (value < 0) {
            throw invalid(field, value, ">= 0");
        }
        return value;
    }

    private static StatusRuntimeException invalid(String field, @Nullable Object value, String expected) {
        return Status.INVALID_ARGUMENT
                .withDescription(field + ": " + value + " (expected: " + expected + ")")
                .asRuntimeException();
    }
}
