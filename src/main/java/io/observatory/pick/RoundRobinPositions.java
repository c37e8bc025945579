package io.observatory.pick;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where each round-robin balancer continues, keyed by a caller-given key (the balancer's subject selector), for at
 * most {@value #MAX_KEYS} keys.
 *
 * <p>Safe for concurrent use: gRPC handlers pick concurrently, and each call reads and advances its key's position in
 * one step, so two concurrent picks never get the same position. When a new key would exceed the bound, the key
 * used least recently is forgotten; it starts again from the first position when it comes back.
 */
public final class RoundRobinPositions {

    /** The most keys remembered. */
    public static final int MAX_KEYS = 1_024;

    /**
     * Next position by key, least recently used first. Guarded by its own monitor: a LinkedHashMap in access order
     * is not thread-safe and even a read reorders it, and each read-and-advance must be atomic; the critical section
     * is a few map operations, so one lock costs less than anything finer.
     */
    private final Map<String, Integer> nextPositions = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > MAX_KEYS;
        }
    };

    /**
     * Returns the position to pick now for {@code key} and advances it, as Xray's {@code RoundRobinStrategy} does
     * ({@code app/router/balancing.go}): position {@code p mod size}, then {@code p + 1 mod size}, starting at 0. When
     * the candidate count changes, the stored position is taken modulo the new count.
     *
     * @param key the balancer's key, not {@code null}
     * @param size how many candidates there are now, at least 1
     * @return a position in {@code [0, size)}
     * @throws IllegalArgumentException when {@code size} is below 1
     */
    public int next(String key, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size: " + size + " (expected: >= 1)");
        }
        synchronized (nextPositions) { // see nextPositions: read-and-advance must be atomic across gRPC handlers
            int position = nextPositions.getOrDefault(key, 0) % size;
            nextPositions.put(key, (position + 1) % size);
            return position;
        }
    }
}
