package io.observatory.mesh.judge;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The fleet the mesh judges: its servers and the witnesses that look at them. Costs per server its name, route and
 * entry-point names; per witness four fields.
 *
 * @param servers   the servers, names unique
 * @param witnesses the witnesses, names unique; a witness's {@code server}, when set, names one of {@code servers}
 */
public record MeshFleet(List<Server> servers, List<Witness> witnesses) {

    /**
     * One machine of the fleet.
     *
     * @param name        e.g. {@code s4}
     * @param route       the group a client may be served any member of, e.g. {@code de}
     * @param entryPoints the names of the addresses clients connect to, e.g. {@code main}; an entry point is the
     *                    outbound {@code <server>/<entry>} everywhere in the API; at least one, unique
     */
    public record Server(String name, String route, List<String> entryPoints) {

        public Server {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(route, "route");
            entryPoints = List.copyOf(entryPoints);
            if (entryPoints.isEmpty() || new HashSet<>(entryPoints).size() != entryPoints.size()) {
                throw new IllegalArgumentException(
                        "server " + name + ": entry points " + entryPoints + " (expected: at least one, names unique)");
            }
        }

        /** The tag of entry point {@code entryPoint}: {@code <server>/<entry>}. */
        public String tag(String entryPoint) {
            return name + "/" + entryPoint;
        }
    }

    /**
     * An observatory instance probing from its own network location.
     *
     * @param name    e.g. {@code w1}
     * @param site    its network, country or provider label; witnesses of one site are not independent
     * @param server  the server it runs on: its self-report is that server's, and it does not probe it; {@code null}
     *                for an external vantage point
     * @param checker whether the operator trusts it: its failure to reach a server alone says that server is blocked
     */
    public record Witness(
            String name, String site, @Nullable String server, boolean checker) {

        public Witness {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(site, "site");
        }
    }

    /** @throws IllegalArgumentException when names repeat or a witness names a server that is not in the fleet */
    public MeshFleet {
        servers = List.copyOf(servers);
        witnesses = List.copyOf(witnesses);
        Set<String> serverNames = new LinkedHashSet<>();
        servers.forEach(server -> requireUnique(serverNames, "server", server.name()));
        Set<String> witnessNames = new HashSet<>();
        for (Witness witness : witnesses) {
            requireUnique(witnessNames, "witness", witness.name());
            if (witness.server() != null && !serverNames.contains(witness.server())) {
                throw new IllegalArgumentException("witness " + witness.name() + ": server " + witness.server()
                        + " (expected: one of the fleet's servers " + serverNames + ")");
            }
        }
    }

    private static void requireUnique(Set<String> seen, String kind, String name) {
        if (!seen.add(name)) {
            throw new IllegalArgumentException(kind + " " + name + " (expected: each " + kind + " named once)");
        }
    }
}
