package io.kuberaysim.apiserver.storage;

import tools.jackson.databind.JsonNode;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiPredicate;

/**
 * A bounded cache of stored-form nodes: {@link #intern} gives the instance held that is the same as a new one, so
 * equal parts of many stored objects are one instance. "The same" is decided by the predicate given at construction,
 * shallowly (children by identity: they are canonical already), which {@code JsonNode.equals} cannot express (it
 * ignores field order and compares deeply); hence this small table instead of a library interner.
 * <p>
 * The cache is two-way set-associative with a fixed number of slots: a node found is moved to its set's first slot,
 * a new node takes that slot and pushes the other out. Sharing is therefore best effort: a part every cluster has (a
 * template's container, a probe) is asked for again and again and stays, a part seen once and then not for millions
 * of writes may be held twice. That costs a little heap; what it saves is the per-node bookkeeping of a complete
 * table: a weak reference for every distinct node ever stored (tens of millions at 100,000 clusters), each one an
 * object the collector copied, discovered and cleared, and a reference queue to drain on every write. A node no
 * stored object holds any more stays reachable until it is pushed out: at most the table's {@code 2 * sets} nodes.
 * <p>
 * Thread-safe without locks: writers freeze their objects concurrently (outside the store's write lock). Two writers
 * racing for a set may leave a node held twice or push out the wrong one; the answer is always a node the same as
 * the one asked for, since a candidate is compared before it is returned and nodes never change.
 */
final class NodeInterner {
    private final BiPredicate<JsonNode, JsonNode> same;
    private final AtomicReferenceArray<JsonNode> nodes;
    /** The held nodes' hashes, read before a candidate is compared; a stale one only costs a comparison or a miss. */
    private final int[] hashes;
    /** The set of a hash is its product's top bits: the table's hashes are mixed, the product spreads them once more. */
    private final int setShift;
    private final LongAdder lookups = new LongAdder();

    /** A cache of {@code 2 * sets} nodes; {@code sets} a power of two, at least 2. */
    NodeInterner(BiPredicate<JsonNode, JsonNode> same, int sets) {
        if (sets < 2 || Integer.bitCount(sets) != 1) {
            throw new IllegalArgumentException("sets must be a power of two, at least 2: " + sets);
        }
        this.same = same;
        this.nodes = new AtomicReferenceArray<>(2 * sets);
        this.hashes = new int[2 * sets];
        this.setShift = 32 - Integer.numberOfTrailingZeros(sets);
    }

    /** The held node the same as {@code node} (whose hash is {@code hash}), or {@code node} itself, now held. */
    JsonNode intern(JsonNode node, int hash) {
        lookups.increment();
        int first = (hash * 0x9E3779B9) >>> setShift << 1;
        JsonNode held = nodes.getAcquire(first);
        if (held != null && hashes[first] == hash && same.test(held, node)) {
            return held;
        }
        JsonNode other = nodes.getAcquire(first + 1);
        if (other != null && hashes[first + 1] == hash && same.test(other, node)) {
            // found in the second slot: it moves to the first, where the next lookup looks first
            put(first + 1, held, hashes[first]);
            put(first, other, hash);
            return other;
        }
        put(first + 1, held, hashes[first]);
        put(first, node, hash);
        return node;
    }

    private void put(int slot, JsonNode node, int hash) {
        hashes[slot] = hash;
        nodes.setRelease(slot, node);
    }

    /** Lookups so far (a measure for tests). */
    long lookups() {
        return lookups.sum();
    }

    /** Nodes held now. */
    int size() {
        int n = 0;
        for (int i = 0; i < nodes.length(); i++) {
            if (nodes.getAcquire(i) != null) {
                n++;
            }
        }
        return n;
    }
}
