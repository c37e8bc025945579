package io.observatory.detectionlab;

import io.observatory.testing.ExternalCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fault of one target, made with nft inside the target's network namespace (never in the root namespace) in a
 * table of its own, with named counters; {@link #close()} reads the counters and deletes the table, which ends the
 * fault. Three kinds:
 * <ul>
 *   <li>{@link #refuse refused}: TCP to the port is answered with a reset (the target's server is down);</li>
 *   <li>{@link #blackHole black hole}: every IP packet arriving in the namespace is dropped (connects time out);</li>
 *   <li>{@link #packetLoss packet loss}: a random share of the IP packets is dropped in both directions, at the
 *       ingress and egress hooks of the namespace's veth end (a {@code netdev} table).</li>
 * </ul>
 */
final class TargetFault implements AutoCloseable {

    /** How long one {@code ip netns exec … nft …} command may take. */
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(10);

    private static final String TABLE_PREFIX = "detection_lab_";
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final Pattern COUNTER = Pattern.compile("counter (\\w+) \\{\\s*packets (\\d+) bytes");
    private static final Pattern LEFTOVER = Pattern.compile("(?m)^table (inet|netdev) (" + TABLE_PREFIX + "\\d+)$");

    private final String description;
    private final String namespace;
    private final String family;
    private final String table;
    private boolean applied;
    private Map<String, Long> counters = Map.of();

    private TargetFault(String description, String namespace, String family, String table) {
        this.description = description;
        this.namespace = namespace;
        this.family = family;
        this.table = table;
    }

    /** TCP to {@code port} in {@code namespace} is refused with a reset; counter {@code refused}. */
    static TargetFault refuse(String namespace, int port) {
        String table = TABLE_PREFIX + COUNT.incrementAndGet();
        return apply(
                new TargetFault(namespace + ": tcp dport " + port + " reject with tcp reset", namespace, "inet", table),
                "table inet " + table + " {\n"
                        + "  counter refused { }\n"
                        + "  chain in {\n"
                        + "    type filter hook input priority 0; policy accept;\n"
                        + "    tcp dport " + port + " counter name \"refused\" reject with tcp reset\n"
                        + "  }\n"
                        + "}\n");
    }

    /** Every IP packet arriving in {@code namespace} is dropped; counter {@code dropped}. */
    static TargetFault blackHole(String namespace) {
        String table = TABLE_PREFIX + COUNT.incrementAndGet();
        return apply(
                new TargetFault(namespace + ": input drop", namespace, "inet", table),
                "table inet " + table
                        + " {\n"
                        + "  counter dropped { }\n"
                        + "  chain in {\n"
                        + "    type filter hook input priority 0; policy accept;\n"
                        + "    counter name \"dropped\" drop\n"
                        + "  }\n"
                        + "}\n");
    }

    /**
     * {@code percent} % of the IP packets crossing {@code device} of {@code namespace} are dropped at random, each
     * direction on its own ({@code numgen random mod 100 < percent}); counters {@code in_seen}, {@code in_dropped},
     * {@code out_seen}, {@code out_dropped} (seen: every IP packet that reached the hook).
     */
    static TargetFault packetLoss(String namespace, String device, int percent) {
        String table = TABLE_PREFIX + COUNT.incrementAndGet();
        StringBuilder program = new StringBuilder("table netdev " + table + " {\n");
        for (String direction : List.of("in", "out")) {
            program.append("  counter ")
                    .append(direction)
                    .append("_seen { }\n")
                    .append("  counter ")
                    .append(direction)
                    .append("_dropped { }\n");
        }
        for (String direction : List.of("in", "out")) {
            program.append("  chain ")
                    .append(direction)
                    .append(" {\n")
                    .append("    type filter hook ")
                    .append(direction.equals("in") ? "ingress" : "egress")
                    .append(" device ")
                    .append(device)
                    .append(" priority 0; policy accept;\n")
                    .append("    meta protocol ip counter name \"")
                    .append(direction)
                    .append("_seen\"\n")
                    .append("    meta protocol ip numgen random mod 100 < ")
                    .append(percent)
                    .append(" counter name \"")
                    .append(direction)
                    .append("_dropped\" drop\n")
                    .append("  }\n");
        }
        program.append("}\n");
        return apply(
                new TargetFault(
                        namespace + ": " + percent + " % loss both ways on " + device, namespace, "netdev", table),
                program.toString());
    }

    private static TargetFault apply(TargetFault fault, String program) {
        nft(fault.namespace, program, "-f", "-");
        fault.applied = true;
        return fault;
    }

    private static String nft(String namespace, String input, String... args) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, "nft"));
        command.addAll(List.of(args));
        return ExternalCommand.run(COMMAND_LIMIT, input, command);
    }

    /** What the fault is, e.g. {@code obd120-a: tcp dport 80 reject with tcp reset}. */
    String describe() {
        return description;
    }

    /** The counters' packets now (while applied) or as read by {@link #close()}, by counter name. */
    Map<String, Long> counters() {
        return applied ? read() : counters;
    }

    /** {@link #counters()} in a line, e.g. {@code refused 12}; packet loss with each direction's share. */
    String describeCounters() {
        Map<String, Long> packets = counters();
        if (!packets.containsKey("in_seen")) {
            List<String> parts = new ArrayList<>();
            packets.forEach((name, count) -> parts.add(name + " " + count + " packets"));
            return String.join(", ", parts);
        }
        List<String> parts = new ArrayList<>();
        for (String direction : List.of("in", "out")) {
            long seen = packets.get(direction + "_seen");
            long dropped = packets.get(direction + "_dropped");
            parts.add(String.format(
                    Locale.ROOT,
                    "%s %d of %d packets dropped (%.1f %%)",
                    direction,
                    dropped,
                    seen,
                    seen == 0 ? 0.0 : 100.0 * dropped / seen));
        }
        return String.join(", ", parts);
    }

    private Map<String, Long> read() {
        Map<String, Long> packets = new LinkedHashMap<>();
        Matcher matcher = COUNTER.matcher(nft(namespace, "", "list", "counters", "table", family, table));
        while (matcher.find()) {
            packets.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        return packets;
    }

    /** Reads the counters and deletes the table: the fault ends. Idempotent. */
    @Override
    public void close() {
        if (!applied) {
            return;
        }
        counters = read();
        applied = false;
        nft(namespace, "", "delete", "table", family, table);
    }

    /** Deletes every fault table left in {@code namespace} (after a failed test) and returns their names. */
    static List<String> deleteLeftovers(String namespace) {
        List<String> left = new ArrayList<>();
        Matcher tables = LEFTOVER.matcher(nft(namespace, "", "list", "tables"));
        while (tables.find()) {
            left.add(tables.group(1) + " " + tables.group(2));
        }
        left.forEach(table -> nft(namespace, "", "delete", "table", table.split(" ")[0], table.split(" ")[1]));
        return left;
    }
}
