package io.observatory.xds;

import com.google.common.net.InetAddresses;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.observatory.config.HostPort;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.config.SubjectSelector;
import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.time.Scheduler;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps java-control-plane's snapshot in step with the verdicts. The writer only notes which outbounds changed (and a
 * new configuration); the {@code xds-snapshot} thread rebuilds what they touch — an endpoint's health status or weight,
 * then its cluster's load assignment — and sets a new snapshot only when a resource a client sees differs, with a new
 * version for that resource type alone. Setting it answers every client's open watch on this thread (the cache does),
 * never on the writer; a client that has not acknowledged the previous answer has no watch open and is answered when
 * it asks again, so a slow or stuck client holds at most one answer per type and never slows anyone.
 *
 * <p>Costs per served endpoint one {@link LbEndpoint} (about 100 bytes) and its index entry; a change of one outbound
 * rebuilds the load assignments of the clusters it is in: O(their endpoints).
 */
final class XdsPublisher {

    /** The one node group: every client sees the same clusters. */
    static final String GROUP = "observatory";

    private static final Logger log = LoggerFactory.getLogger(XdsPublisher.class);

    private final SimpleCache<String> cache;
    private final Scheduler thread;
    private final LongConsumer buildNanos;
    private final Object lock = new Object();
    // Guarded by lock: what the writer handed over since the last build.
    private final Set<String> changed = new HashSet<>();
    private @Nullable Observation latest;
    private @Nullable ObservatoryConfig nextConfig;
    private boolean buildScheduled;
    // Read by the writer to skip outbounds no cluster serves; replaced whole on the xds thread.
    private volatile Set<String> served = Set.of();
    // The xds thread only.
    private List<Plan> plans = List.of();
    private Map<String, List<Member>> byTag = Map.of();
    private @Nullable Observation observation;
    private long clustersVersion;
    private long endpointsVersion;
    private final AtomicLong snapshots = new AtomicLong();

    /**
     * @param buildNanos hears how long each build that set a snapshot took
     */
    XdsPublisher(SimpleCache<String> cache, Scheduler thread, ObservatoryConfig initial, LongConsumer buildNanos) {
        this.cache = cache;
        this.thread = thread;
        this.buildNanos = buildNanos;
        this.nextConfig = initial;
    }

    /** Follows {@code store} from now on: on the writer, the current observation, then each publication. */
    Runnable follow(ObservationStore store) {
        return store.watch(this::observed, this::updated);
    }

    /** A new configuration, on the writer (reload): its clusters replace the served ones. */
    void reconfigure(ObservatoryConfig config) {
        synchronized (lock) {
            nextConfig = config;
        }
        schedule();
    }

    /** Snapshots set since the start. */
    long snapshots() {
        return snapshots.get();
    }

    private void observed(Observation start) {
        synchronized (lock) {
            latest = start;
            changed.addAll(served);
        }
        schedule();
    }

    private void updated(ObservationUpdate update) {
        Set<String> watched = served;
        boolean relevant = false;
        synchronized (lock) {
            latest = update.observation();
            for (OutboundEvent event : update.events()) {
                if (watched.contains(event.tag())) {
                    changed.add(event.tag());
                    relevant = true;
                }
            }
        }
        if (relevant) {
            schedule();
        }
    }

    private void schedule() {
        synchronized (lock) {
            if (buildScheduled) {
                return;
            }
            buildScheduled = true;
        }
        thread.execute(this::build);
    }

    @SuppressWarnings("ReferenceEquality") // whether a newer configuration or observation arrived meanwhile: identity
    private void build() {
        long start = System.nanoTime();
        Set<String> tags;
        ObservatoryConfig config;
        synchronized (lock) {
            buildScheduled = false;
            observation = latest;
            config = nextConfig;
            tags = Set.copyOf(changed);
            changed.clear();
        }
        boolean clustersChanged = snapshots.get() == 0;
        boolean endpointsChanged = false;
        if (config != null) {
            List<Plan> next = plans(config);
            clustersChanged |= !next.stream()
                    .map(Plan::name)
                    .toList()
                    .equals(plans.stream().map(Plan::name).toList());
            Map<String, ClusterLoadAssignment> before = new HashMap<>();
            plans.forEach(plan -> before.put(plan.name, plan.assignment));
            plans = next;
            index();
            for (Plan plan : plans) {
                plan.rebuild(observation);
                endpointsChanged |= !plan.assignment.equals(before.get(plan.name));
            }
            synchronized (lock) {
                if (nextConfig == config) {
                    nextConfig = null;
                }
                if (latest != observation) {
                    // The writer filtered what it published meanwhile by the outbounds served before this
                    // configuration: read every newly served one again.
                    changed.addAll(served);
                }
            }
        } else {
            Map<Plan, List<Member>> touched = new LinkedHashMap<>();
            for (String tag : tags) {
                for (Member member : byTag.getOrDefault(tag, List.of())) {
                    touched.computeIfAbsent(member.plan, plan -> new ArrayList<>())
                            .add(member);
                }
            }
            for (Map.Entry<Plan, List<Member>> plan : touched.entrySet()) {
                endpointsChanged |= plan.getKey().refresh(observation, plan.getValue());
            }
        }
        if (clustersChanged || endpointsChanged) {
            if (clustersChanged) {
                clustersVersion++;
            }
            if (endpointsChanged) {
                endpointsVersion++;
            }
            publish();
            buildNanos.accept(System.nanoTime() - start);
        }
        boolean again;
        synchronized (lock) {
            again = !changed.isEmpty() || nextConfig != null;
        }
        if (again) {
            schedule();
        }
    }

    private void publish() {
        List<Cluster> clusters = new ArrayList<>(plans.size());
        List<ClusterLoadAssignment> assignments = new ArrayList<>(plans.size());
        List<Listener> listeners = new ArrayList<>(plans.size());
        List<RouteConfiguration> routes = new ArrayList<>(plans.size());
        for (Plan plan : plans) {
            clusters.add(XdsResources.cluster(plan.name));
            assignments.add(plan.assignment);
            listeners.add(XdsResources.listener(plan.name));
            routes.add(XdsResources.route(plan.name));
        }
        String clusterVersion = Long.toString(clustersVersion);
        Snapshot snapshot = Snapshot.create(
                clusters,
                clusterVersion,
                assignments,
                Long.toString(endpointsVersion),
                listeners,
                clusterVersion,
                routes,
                clusterVersion,
                List.of(),
                "0");
        cache.setSnapshot(GROUP, snapshot);
        snapshots.incrementAndGet();
    }

    private void index() {
        Map<String, List<Member>> index = new HashMap<>();
        for (Plan plan : plans) {
            for (Member member : plan.members) {
                index.computeIfAbsent(member.tag, tag -> new ArrayList<>(1)).add(member);
            }
        }
        byTag = index;
        served = Set.copyOf(index.keySet());
    }

    /** Each configured cluster, then each mesh route, with the outbounds it serves that have an endpoint. */
    private static List<Plan> plans(ObservatoryConfig config) {
        XdsSettings settings = config.section(XdsSettings.SECTION);
        URI observerUrl = config.observerUrl();
        Map<String, Outbound> outbounds = new LinkedHashMap<>();
        config.observedOutbounds().forEach(outbound -> outbounds.put(outbound.tag(), outbound));
        List<Plan> plans = new ArrayList<>();
        for (XdsClusterSettings cluster : settings.clusters()) {
            SubjectSelector selector = new SubjectSelector(cluster.selector());
            List<Outbound> chosen = selector.select(config.observedOutbounds());
            plans.add(new Plan(
                    Objects.requireNonNull(cluster.name(), "validated"),
                    cluster.weights() == XdsClusterSettings.Weights.RTT,
                    chosen,
                    observerUrl));
        }
        if (settings.routes()) {
            config.outboundGroups().forEach((name, tags) -> {
                if (name.startsWith(XdsResources.ROUTE_PREFIX)) {
                    plans.add(new Plan(
                            name,
                            false,
                            tags.stream()
                                    .map(outbounds::get)
                                    .filter(Objects::nonNull)
                                    .toList(),
                            observerUrl));
                }
            });
        }
        plans.forEach(plan -> plan.warnUnreachable());
        return plans;
    }

    /** One served cluster: its members in selection order and their current endpoints. */
    private static final class Plan {

        final String name;
        final boolean rttWeights;
        final List<Member> members = new ArrayList<>();
        final List<String> withoutEndpoint = new ArrayList<>();
        final @Nullable LbEndpoint[] endpoints;
        ClusterLoadAssignment assignment;

        Plan(String name, boolean rttWeights, List<Outbound> outbounds, @Nullable URI observerUrl) {
            this.name = name;
            this.rttWeights = rttWeights;
            for (Outbound outbound : outbounds) {
                HostPort endpoint = outbound.balancerEndpoint(observerUrl);
                if (endpoint == null || !InetAddresses.isInetAddress(endpoint.host())) {
                    withoutEndpoint.add(outbound.tag());
                } else {
                    members.add(new Member(this, members.size(), outbound.tag(), endpoint));
                }
            }
            this.endpoints = new LbEndpoint[members.size()];
            this.assignment = XdsResources.assignment(name, List.of());
        }

        String name() {
            return name;
        }

        void warnUnreachable() {
            if (!withoutEndpoint.isEmpty()) {
                log.warn(
                        "xds cluster {}: {} outbounds have no IP address to send traffic to and are left out (xDS"
                                + " clients take IP addresses only: set their endpoint to ip:port): {}",
                        name,
                        withoutEndpoint.size(),
                        withoutEndpoint.size() > 10 ? withoutEndpoint.subList(0, 10) + " …" : withoutEndpoint);
            }
        }

        /** Builds every endpoint and the assignment from {@code observation}. */
        void rebuild(@Nullable Observation observation) {
            refresh(observation, members);
            assignment = assignment();
        }

        /** The served endpoints: every member the observation has (one it no longer has is being removed). */
        private ClusterLoadAssignment assignment() {
            List<LbEndpoint> served = new ArrayList<>(endpoints.length);
            for (LbEndpoint endpoint : endpoints) {
                if (endpoint != null) {
                    served.add(endpoint);
                }
            }
            return XdsResources.assignment(name, served);
        }

        /**
         * Rebuilds the endpoints of {@code changed} from {@code observation} (every one when weighted by RTT, since the
         * fastest sets the others' weights), and the assignment when one differs: O(changed), or O(members) with RTT
         * weights or when the assignment is rebuilt.
         *
         * @return whether the assignment changed
         */
        boolean refresh(@Nullable Observation observation, List<Member> changedMembers) {
            long fastest = Long.MAX_VALUE;
            if (rttWeights) {
                for (Member member : members) {
                    long rtt = rtt(observation, member.tag);
                    if (rtt > 0) {
                        fastest = Math.min(fastest, rtt);
                    }
                }
            }
            boolean changed = false;
            for (Member member : rttWeights ? members : changedMembers) {
                Optional<OutboundHealth> health = observation == null ? Optional.empty() : observation.get(member.tag);
                HealthState verdict = health.map(OutboundHealth::verdict).orElse(HealthState.UNKNOWN);
                int weight = 0;
                if (rttWeights) {
                    long rtt = rtt(observation, member.tag);
                    weight = rtt > 0 ? XdsResources.rttWeight(rtt, fastest) : 10;
                }
                LbEndpoint endpoint = XdsResources.endpoint(member.endpoint, verdict, weight);
                if (!endpoint.equals(endpoints[member.index])) {
                    endpoints[member.index] = endpoint;
                    changed = true;
                }
            }
            if (changed) {
                assignment = assignment();
            }
            return changed;
        }

        private static long rtt(@Nullable Observation observation, String tag) {
            return observation == null
                    ? 0
                    : observation
                            .get(tag)
                            .filter(OutboundHealth::alive)
                            .map(OutboundHealth::delayMillis)
                            .orElse(0L);
        }
    }

    /** One outbound in one cluster. */
    private record Member(Plan plan, int index, String tag, HostPort endpoint) {}
}
