package io.kuberaysim.apiserver.storage;

import tools.jackson.databind.JsonNode;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.function.BiPredicate;

/**
 * A weak set of stored-form nodes: {@link #intern} gives the instance already held that is the same as a new one,
 * so equal parts of many stored objects are one instance. "The same" is decided by the predicate given at
 * construction, shallowly (children by identity: they are canonical already), which {@code JsonNode.equals} cannot
 * express (it ignores field order and compares deeply); hence this small table instead of a library interner.
 * A node no stored object holds any more is let go. Thread-safe: the table is split into stripes by hash, each
 * with its own lock, because writers freeze their objects concurrently (outside the store's write lock) and one
 * lock taken per node made them queue.
 */
final class NodeInterner {
    private static final int STRIPES = 64;

    private final Stripe[] stripes = new Stripe[STRIPES];

    NodeInterner(BiPredicate<JsonNode, JsonNode> same) {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe(same);
        }
    }

    /** The held node the same as {@code node} (whose hash is {@code hash}), or {@code node} itself, now held. */
    JsonNode intern(JsonNode node, int hash) {
        // the stripe from the high bits, the slot within it from the low ones
        return stripes[(hash * 0x9E3779B9) >>> 26].intern(node, hash);
    }

    /** Lookups so far (a measure for tests). */
    long lookups() {
        long n = 0;
        for (Stripe s : stripes) {
            n += s.lookups();
        }
        return n;
    }

    /** Nodes held now (cleared ones not yet dropped included). */
    int size() {
        int n = 0;
        for (Stripe s : stripes) {
            n += s.size();
        }
        return n;
    }

    /** One slot of the table: a weak reference to a canonical node, with the node's hash. */
    private static final class Entry extends WeakReference<JsonNode> {
        final int hash;
        Entry next;

        Entry(JsonNode node, int hash, Entry next, ReferenceQueue<JsonNode> queue) {
            super(node, queue);
            this.hash = hash;
            this.next = next;
        }
    }

    /** One lock's share of the table. */
    private static final class Stripe {
        private static final int INITIAL = 1 << 6;

        private final BiPredicate<JsonNode, JsonNode> same;
        private final ReferenceQueue<JsonNode> cleared = new ReferenceQueue<>();
        private Entry[] table = new Entry[INITIAL];
        private int size;
        private long lookups;

        Stripe(BiPredicate<JsonNode, JsonNode> same) {
            this.same = same;
        }

        synchronized JsonNode intern(JsonNode node, int hash) {
            lookups++;
            expunge();
            Entry[] t = table;
            int i = index(hash, t.length);
            for (Entry e = t[i]; e != null; e = e.next) {
                if (e.hash == hash) {
                    JsonNode held = e.get();
                    if (held != null && same.test(held, node)) {
                        return held;
                    }
                }
            }
            t[i] = new Entry(node, hash, t[i], cleared);
            if (++size > t.length) { // chains of one on average: the table stays a quarter of the entries
                resize();
            }
            return node;
        }

        synchronized int size() {
            return size;
        }

        synchronized long lookups() {
            return lookups;
        }

        private static int index(int hash, int length) {
            return (hash ^ (hash >>> 16)) & (length - 1);
        }

        private void resize() {
            Entry[] old = table;
            Entry[] t = new Entry[old.length * 2];
            for (Entry head : old) {
                for (Entry e = head; e != null; ) {
                    Entry next = e.next;
                    int i = index(e.hash, t.length);
                    e.next = t[i];
                    t[i] = e;
                    e = next;
                }
            }
            table = t;
        }

        private void expunge() {
            for (Reference<? extends JsonNode> r; (r = cleared.poll()) != null; ) {
                Entry gone = (Entry) r;
                int i = index(gone.hash, table.length);
                Entry prev = null;
                for (Entry e = table[i]; e != null; prev = e, e = e.next) {
                    if (e == gone) {
                        if (prev == null) {
                            table[i] = e.next;
                        } else {
                            prev.next = e.next;
                        }
                        size--;
                        break;
                    }
                }
            }
        }
    }
}
