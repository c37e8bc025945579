package io.observatory.meshlab;

import io.observatory.testing.ExternalCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A network fault made of nft drop rules inside the lab's server namespaces (never in the root namespace): per
 * namespace one table {@code inet mesh-lab-fault-<n>} of its own (faults may overlap) with an input and an output
 * chain, each rule counting what it drops. Dropped packets make the probes behind them time out, as on a real cut.
 * {@link #close()} deletes the tables again, which ends the fault.
 */
final class NetworkFault implements AutoCloseable {

    /** How long one {@code ip netns exec … nft …} command may take. */
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(10);

    private static final String TABLE_PREFIX = "mesh-lab-fault-";
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final Pattern PACKETS = Pattern.compile("counter packets (\\d+) bytes");
    private static final Pattern LEFTOVER = Pattern.compile("(?m)^table inet (" + TABLE_PREFIX + "\\d+)$");

    /** One drop rule: in {@code namespace}, chain {@code in} (input hook) or {@code out} (output hook). */
    record Rule(String namespace, String chain, String match) {}

    private final String name;
    private final String table = TABLE_PREFIX + COUNT.incrementAndGet();
    private final Map<String, List<Rule>> byNamespace = new LinkedHashMap<>();
    private boolean applied;
    private long dropped = -1;

    private NetworkFault(String name, List<Rule> rules) {
        this.name = name;
        rules.forEach(rule -> byNamespace
                .computeIfAbsent(rule.namespace(), ns -> new ArrayList<>())
                .add(rule));
    }

    /** A rule of the input hook of {@code namespace}: packets arriving there that match {@code match} are dropped. */
    static Rule dropIncoming(String namespace, String match) {
        return new Rule(namespace, "in", match);
    }

    /** A rule of the output hook of {@code namespace}: packets leaving it that match {@code match} are dropped. */
    static Rule dropOutgoing(String namespace, String match) {
        return new Rule(namespace, "out", match);
    }

    /** Installs every rule, namespace by namespace, and returns the fault; it lasts until {@link #close()}. */
    static NetworkFault apply(String name, List<Rule> rules) {
        NetworkFault fault = new NetworkFault(name, rules);
        fault.applied = true;
        fault.byNamespace.forEach((namespace, nsRules) -> nft(namespace, fault.program(nsRules), "-f", "-"));
        return fault;
    }

    private String program(List<Rule> rules) {
        StringBuilder program = new StringBuilder("table inet " + table + " {\n");
        for (String chain : List.of("in", "out")) {
            program.append("  chain ")
                    .append(chain)
                    .append(" {\n    type filter hook ")
                    .append(chain.equals("in") ? "input" : "output")
                    .append(" priority 0; policy accept;\n");
            rules.stream()
                    .filter(rule -> rule.chain().equals(chain))
                    .forEach(rule -> program.append("    ").append(rule.match()).append(" counter drop\n"));
            program.append("  }\n");
        }
        return program.append("}\n").toString();
    }

    private static String nft(String namespace, String input, String... args) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, "nft"));
        command.addAll(List.of(args));
        return ExternalCommand.run(COMMAND_LIMIT, input, command);
    }

    /** The rules as nft lists them, one namespace per line: what the fault is, for the test's output. */
    String describe() {
        List<String> parts = new ArrayList<>();
        byNamespace.forEach((namespace, rules) -> parts.add(namespace + ": "
                + String.join(
                        "; ",
                        rules.stream()
                                .map(rule -> rule.chain() + " " + rule.match() + " drop")
                                .toList())));
        return name + " [" + String.join(" | ", parts) + "]";
    }

    /** Packets the rules dropped, read just before {@link #close()} deleted them; -1 before that. */
    long dropped() {
        return dropped;
    }

    /** Reads the rules' counters and deletes the tables: the fault ends. Idempotent. */
    @Override
    public void close() {
        if (!applied) {
            return;
        }
        applied = false;
        long total = 0;
        for (String namespace : byNamespace.keySet()) {
            Matcher counters = PACKETS.matcher(nft(namespace, "", "list", "table", "inet", table));
            while (counters.find()) {
                total += Long.parseLong(counters.group(1));
            }
            nft(namespace, "", "delete", "table", "inet", table);
        }
        dropped = total;
    }

    /** Deletes every fault table left in {@code namespace} (after a failed test) and returns their names. */
    static List<String> deleteLeftovers(String namespace) {
        List<String> left = new ArrayList<>();
        Matcher tables = LEFTOVER.matcher(nft(namespace, "", "list", "tables"));
        while (tables.find()) {
            left.add(tables.group(1));
        }
        left.forEach(table -> nft(namespace, "", "delete", "table", "inet", table));
        return left;
    }
}
