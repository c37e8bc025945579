package io.observatory.mesh.judge;

import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Which servers each witness probes. {@code full}: every witness probes every server but its own, N² probes an
 * interval. {@code k-per-server}: each server is probed by {@code k} witnesses chosen for it, plus every checker, so
 * probes grow with N: the way Route 53 and Cloudflare check each endpoint from a chosen few of their locations rather
 * than from all of them (Route 53 health checkers in at least three regions; Cloudflare three data centres per region).
 *
 * <p>The {@code k} are chosen by rendezvous (highest random weight) hashing, as Thaler and Ravishankar's "A
 * name-based mapping scheme for rendezvous" (1998): each (server, witness) pair has a pseudo-random weight from their
 * names alone, and a server takes its highest-weighted witnesses, so that a witness joining or leaving moves only the
 * servers it wins or held, not the others. Sites come first: the best-weighted witness of each site competes, so the
 * {@code k} come from {@code k} different sites while the fleet has that many (witnesses of one site share a network
 * and vouch for each other less); only then does a site give a second. A witness never probes its own server.
 *
 * <p>Cost: O(servers × witnesses) cheap hash mixes at each fleet change (10,000 × 10,000: about a second), and held per
 * server its {@code k} + checkers witnesses. Immutable.
 */
public final class WitnessAssignment {

    private final MeshFleet fleet;
    private final int perServer;
    // Null when full: then computed on demand from the fleet (a full 10,000-server assignment is 10^8 pairs).
    private final @Nullable Map<String, List<String>> serversByWitness;
    private final @Nullable Map<String, List<String>> witnessesByServer;

    private WitnessAssignment(
            MeshFleet fleet,
            int perServer,
            @Nullable Map<String, List<String>> serversByWitness,
            @Nullable Map<String, List<String>> witnessesByServer) {
        this.fleet = fleet;
        this.perServer = perServer;
        this.serversByWitness = serversByWitness;
        this.witnessesByServer = witnessesByServer;
    }

    /** Every witness probes every server but its own; nothing is held beyond the fleet. */
    public static WitnessAssignment full(MeshFleet fleet) {
        return new WitnessAssignment(fleet, 0, null, null);
    }

    /**
     * Each server probed by {@code k} witnesses of as many sites as the fleet has, plus every checker not on it.
     *
     * @param k witnesses per server besides the checkers, at least 1; a server gets fewer when fewer witnesses are not
     *          on it
     * @throws IllegalArgumentException when {@code k} is below 1
     */
    public static WitnessAssignment perServer(MeshFleet fleet, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("witnesses per server: " + k + " (expected: >= 1)");
        }
        List<Witness> witnesses = fleet.witnesses();
        long[] witnessHashes = new long[witnesses.size()];
        Map<String, Integer> siteIndex = new HashMap<>();
        int[] sites = new int[witnesses.size()];
        for (int i = 0; i < witnesses.size(); i++) {
            witnessHashes[i] = hash(witnesses.get(i).name());
            sites[i] = siteIndex.computeIfAbsent(witnesses.get(i).site(), site -> siteIndex.size());
        }
        Map<String, List<String>> byServer = new LinkedHashMap<>();
        Map<String, List<String>> byWitness = new LinkedHashMap<>();
        witnesses.forEach(witness -> byWitness.put(witness.name(), new ArrayList<>()));
        long[] best = new long[siteIndex.size()];
        int[] bestWitness = new int[siteIndex.size()];
        for (Server server : fleet.servers()) {
            long serverHash = hash(server.name());
            List<String> chosen = choose(server, serverHash, witnesses, witnessHashes, sites, k, best, bestWitness);
            byServer.put(server.name(), chosen);
            chosen.forEach(witness ->
                    byWitness.computeIfAbsent(witness, w -> new ArrayList<>()).add(server.name()));
        }
        byWitness.replaceAll((witness, servers) -> List.copyOf(servers));
        return new WitnessAssignment(fleet, k, byWitness, byServer);
    }

    /** {@code server}'s witnesses: its checkers, then its {@code k} by weight, sites first. */
    private static List<String> choose(
            Server server,
            long serverHash,
            List<Witness> witnesses,
            long[] witnessHashes,
            int[] sites,
            int k,
            long[] best,
            int[] bestWitness) {
        Arrays.fill(bestWitness, -1);
        List<String> chosen = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        for (int i = 0; i < witnesses.size(); i++) {
            Witness witness = witnesses.get(i);
            if (server.name().equals(witness.server())) {
                continue;
            }
            if (witness.checker()) {
                chosen.add(witness.name());
                taken.add(i);
                continue;
            }
            long weight = weight(serverHash, witnessHashes[i]);
            int site = sites[i];
            if (bestWitness[site] < 0 || Long.compareUnsigned(weight, best[site]) > 0) {
                best[site] = weight;
                bestWitness[site] = i;
            }
        }
        int checkers = chosen.size();
        // Each site's best witness, best first; then, while short of k, the best of the others: k passes of a
        // max-selection over primitive weights, O(k × witnesses), never a sort.
        int[] leaders =
                Arrays.stream(bestWitness).filter(witness -> witness >= 0).toArray();
        for (int pick : top(leaders, serverHash, witnessHashes, k)) {
            chosen.add(witnesses.get(pick).name());
            taken.add(pick);
        }
        if (chosen.size() - checkers < k) {
            int[] rest = IntStream.range(0, witnesses.size())
                    .filter(i -> !taken.contains(i)
                            && !server.name().equals(witnesses.get(i).server()))
                    .toArray();
            for (int pick : top(rest, serverHash, witnessHashes, k - (chosen.size() - checkers))) {
                chosen.add(witnesses.get(pick).name());
            }
        }
        return List.copyOf(new TreeSet<>(chosen));
    }

    /** The (at most) {@code count} candidates of highest weight with the server, best first: O(count × candidates). */
    private static int[] top(int[] candidates, long serverHash, long[] witnessHashes, int count) {
        long[] weights = new long[candidates.length];
        for (int i = 0; i < candidates.length; i++) {
            weights[i] = weight(serverHash, witnessHashes[candidates[i]]);
        }
        boolean[] picked = new boolean[candidates.length];
        int[] best = new int[Math.min(count, candidates.length)];
        for (int n = 0; n < best.length; n++) {
            int max = -1;
            for (int i = 0; i < candidates.length; i++) {
                if (!picked[i] && (max < 0 || Long.compareUnsigned(weights[i], weights[max]) > 0)) {
                    max = i;
                }
            }
            picked[max] = true;
            best[n] = candidates[max];
        }
        return best;
    }

    /** Whether every witness probes every server but its own. */
    public boolean full() {
        return serversByWitness == null;
    }

    /** With {@code k-per-server}, the {@code k}: witnesses per server besides the checkers; 0 when full. */
    public int perServer() {
        return perServer;
    }

    /** The servers {@code witness} probes, in fleet order; empty for a witness not in the fleet. O(servers) when full. */
    public List<String> serversOf(String witness) {
        if (serversByWitness != null) {
            return serversByWitness.getOrDefault(witness, List.of());
        }
        Witness found = fleet.witnesses().stream()
                .filter(candidate -> candidate.name().equals(witness))
                .findFirst()
                .orElse(null);
        if (found == null) {
            return List.of();
        }
        return fleet.servers().stream()
                .map(Server::name)
                .filter(server -> !server.equals(found.server()))
                .toList();
    }

    /** The witnesses that probe {@code server}, by name; empty for a server not in the fleet. O(witnesses) when full. */
    public List<String> witnessesOf(String server) {
        if (witnessesByServer != null) {
            return witnessesByServer.getOrDefault(server, List.of());
        }
        if (fleet.servers().stream().noneMatch(candidate -> candidate.name().equals(server))) {
            return List.of();
        }
        return fleet.witnesses().stream()
                .filter(witness -> !server.equals(witness.server()))
                .map(Witness::name)
                .sorted()
                .toList();
    }

    /** The pair's weight: a 64-bit mix of the two names' hashes (the finaliser of SplitMix64). */
    private static long weight(long serverHash, long witnessHash) {
        long z = serverHash ^ (witnessHash * 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A name's 64-bit FNV-1a hash over its UTF-8 bytes: the same in every process and version. */
    private static long hash(String name) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
