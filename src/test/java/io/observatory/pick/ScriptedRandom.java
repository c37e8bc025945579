package io.observatory.pick;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.random.RandomGenerator;

/** A random generator whose {@code nextInt(bound)} returns scripted values and records the bounds it was asked for. */
final class ScriptedRandom implements RandomGenerator {

    private final Deque<Integer> values = new ArrayDeque<>();
    private final List<Integer> bounds = new ArrayList<>();

    ScriptedRandom(Integer... values) {
        this.values.addAll(List.of(values));
    }

    @Override
    public int nextInt(int bound) {
        bounds.add(bound);
        int value = values.isEmpty() ? 0 : values.removeFirst();
        if (value >= bound) {
            throw new AssertionError("scripted " + value + " is not below the bound " + bound);
        }
        return value;
    }

    @Override
    public long nextLong() {
        throw new AssertionError("only nextInt(bound) is scripted");
    }

    /** Returns the bounds {@code nextInt} was called with, in order. */
    List<Integer> bounds() {
        return bounds;
    }
}
