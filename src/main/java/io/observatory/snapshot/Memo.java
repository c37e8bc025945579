package io.observatory.snapshot;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A value derived from a key that is replaced whole (a snapshot, a view, settings in force), built on the first read
 * of each key and shared by every read of the same key, compared by identity (a read-side memo: the writer never pays
 * for it, and a key nobody reads costs nothing). Any thread. Readers of a new key agree on one holder for it, and the
 * first of them to ask builds the value while the others wait for it, so a burst of reads after a publication builds
 * once; a reader that finds a holder for another key (a publication raced it) builds its own key's value and returns
 * it without storing it. Holds one value and the key it was built from.
 *
 * @param <K> the key, immutable and published once (another key is another reference)
 * @param <V> the derived value, immutable
 */
public final class Memo<K, V> {

    private final Function<K, V> build;
    private final AtomicReference<@Nullable Holder<K, V>> last = new AtomicReference<>();

    /** @param build the value of one key; pure */
    public Memo(Function<K, V> build) {
        this.build = build;
    }

    /** The value of {@code key}. */
    public V get(K key) {
        Holder<K, V> held = last.get();
        if (held == null || held.key != key) {
            Holder<K, V> mine = new Holder<>(key, build);
            held = last.compareAndSet(held, mine) ? mine : last.get();
            if (held == null || held.key != key) {
                held = mine;
            }
        }
        return held.value();
    }

    /** Whether the value of {@code key} is built already, so {@link #get} returns without building. */
    public boolean ready(K key) {
        Holder<K, V> held = last.get();
        return held != null && held.key == key && held.built();
    }

    /** One key's value, built once by the first reader that asks. */
    private static final class Holder<K, V> {
        private final K key;
        private final Function<K, V> build;
        private @Nullable V value;

        Holder(K key, Function<K, V> build) {
            this.key = key;
            this.build = build;
        }

        synchronized boolean built() {
            return value != null;
        }

        synchronized V value() {
            if (value == null) {
                value = build.apply(key);
            }
            return value;
        }
    }
}
