package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ContainerNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The stored form of an object's tree: the same Jackson tree, read-only, compact and shared. Objects are backed by
 * one array sized to their content instead of a {@code LinkedHashMap} (an entry, a table slot and a cached entry-set
 * view per field), arrays by immutable lists. Equal parts are one instance across all stored objects
 * (hash-consing, best effort: the table is a bounded cache, {@link NodeInterner}): a node is made canonical once its
 * children are, so two nodes are the same when their field names (in order) and their children's identities are; a
 * worker Pod's containers, probes, tolerations and managedFields are then held once for every Pod that has them.
 * Stored trees were never to be changed in place; a change fails at once ({@link UnsupportedOperationException})
 * instead of silently altering what readers share.
 * {@link JsonNode#deepCopy()} still gives an ordinary, changeable tree.
 */
public final class FrozenTrees {
    /** Objects with more fields than this get a hash index: lookups by scanning stay short. */
    private static final int MAX_SCANNED = 16;
    private static final JsonNodeFactory NODES = Json.MAPPER.getNodeFactory();
    /** 2 × 2^18 slots (4 MiB): the parts every cluster shares stay found at 100,000 clusters (see NodeInterner). */
    private static final NodeInterner CANONICAL = new NodeInterner(FrozenTrees::sameContent, 1 << 18);
    /** The canonical {@code {}}, kept out of the table: it is the one instance even when the table has let it go. */
    private static final ObjectNode EMPTY_OBJECT = new FrozenObject(new ArrayMap(new Object[0]));

    private FrozenTrees() {
    }

    /**
     * The empty object in stored form (read-only), the one instance every stored {@code {}} is: for trees that are
     * built only to be stored, such as the fields of a managedFields entry, whose every leaf is {@code {}}.
     */
    public static ObjectNode emptyObject() {
        return EMPTY_OBJECT;
    }

    /** The canonical stored form of {@code node}; parts already in stored form are kept as they are. */
    public static JsonNode freeze(JsonNode node) {
        return freeze(node, null);
    }

    /**
     * The canonical stored form of {@code node}, where {@code like} (a stored node, or null) is what it probably
     * equals: a part equal to the part of {@code like} at the same place is that part, found without the sharing
     * table. The table is large and its entries lie all over the heap, so looking a node up costs a few cache
     * misses; an update mostly writes back what the previous version held, and objects created one after another
     * are mostly alike, so most nodes of a write are found this way. Either way the result is the same canonical
     * node: {@code like}'s parts are canonical, so the table would answer with them.
     */
    private static JsonNode freeze(JsonNode node, JsonNode like) {
        if (node instanceof FrozenObject || node instanceof FrozenArray) {
            return node;
        }
        if (node instanceof ObjectNode o) {
            if (o.isEmpty()) {
                return EMPTY_OBJECT;
            }
            ArrayMap likeMap = like instanceof FrozenObject f ? f.map() : null;
            // while every field so far is like's (same name, place and node), nothing is built: most of an update is
            // what the previous version held, and this node is then like itself
            Object[] kv = likeMap != null && likeMap.size() == o.size() ? null : new Object[o.size() * 2];
            int i = 0;
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                String k = e.getKey();
                JsonNode likeChild = likeMap == null ? null : likeMap.near(i, k);
                JsonNode child = freeze(e.getValue(), likeChild);
                if (kv == null) {
                    if (k.equals(likeMap.keyAt(i)) && likeChild != null && sameChild(child, likeChild)) {
                        i += 2;
                        continue;
                    }
                    kv = likeMap.prefix(i, o.size() * 2); // the fields before this one are like's
                }
                kv[i++] = k;
                kv[i++] = child;
            }
            if (kv == null) {
                return like;
            }
            FrozenObject f = new FrozenObject(new ArrayMap(kv));
            return CANONICAL.intern(f, f.tableHash());
        }
        if (node instanceof ArrayNode a) {
            FrozenArray likeArray = like instanceof FrozenArray f ? f : null;
            int n = a.size();
            JsonNode[] items = likeArray != null && likeArray.size() == n ? null : new JsonNode[n];
            for (int i = 0; i < n; i++) {
                JsonNode likeItem = likeArray != null && i < likeArray.size() ? likeArray.get(i) : null;
                JsonNode item = freeze(a.get(i), likeItem);
                if (items == null) {
                    if (sameChild(item, likeItem)) {
                        continue; // as for objects: nothing built while every item so far is like's
                    }
                    items = new JsonNode[n];
                    for (int j = 0; j < i; j++) {
                        items[j] = likeArray.get(j);
                    }
                }
                items[i] = item;
            }
            if (items == null) {
                return like;
            }
            FrozenArray f = new FrozenArray(List.of(items));
            return CANONICAL.intern(f, f.tableHash());
        }
        if (node instanceof StringNode s) {
            if (like instanceof StringNode l && l.stringValue().equals(s.stringValue())) {
                return like;
            }
            return CANONICAL.intern(s, stringHash(s.stringValue()));
        }
        return node;
    }

    /**
     * A stored object's tree in stored form. Its root and {@code metadata} are its own (they hold its name, uid and
     * resourceVersion, so no other object shares them and looking them up would only cost), and so are those three
     * values; everything else below is canonical.
     */
    static ObjectNode freezeObject(ObjectNode o) {
        return freezeObject(o, null);
    }

    /**
     * As {@link #freezeObject(ObjectNode)}, comparing with {@code like} (a stored object's tree, or null) on the way:
     * see {@link #freeze(JsonNode, JsonNode)}.
     */
    static ObjectNode freezeObject(ObjectNode o, ObjectNode like) {
        return o instanceof FrozenObject ? o : build(o, Level.ROOT, like);
    }

    /**
     * {@code stored} (a tree from {@link #freezeObject}) with {@code metadata.resourceVersion} set to {@code rv}, in
     * place if it has one, else appended, as {@code ObjectNode.put} would: a new root and metadata over the same
     * children, so the store can freeze an object before it takes its write lock and stamp it under the lock.
     */
    static ObjectNode withResourceVersion(ObjectNode stored, String rv) {
        ArrayMap root = ((FrozenObject) stored).map();
        JsonNode meta = root.get("metadata");
        ArrayMap metaMap = meta instanceof FrozenObject m ? m.map() : new ArrayMap(new Object[0]);
        FrozenObject stamped = new FrozenObject(metaMap.with("resourceVersion", NODES.stringNode(rv)));
        return new FrozenObject(root.with("metadata", stamped));
    }

    /** Whether {@code node} is in stored form (read-only). */
    static boolean isFrozen(JsonNode node) {
        return node instanceof FrozenObject || node instanceof FrozenArray;
    }

    /**
     * Whether {@code node} is a stored object or array, which never changes: what is computed from one may be
     * kept as long as the very instance is seen again.
     */
    public static boolean isStored(JsonNode node) {
        return isFrozen(node);
    }

    /** Lookups in the sharing table so far (a measure for tests). */
    static long tableLookups() {
        return CANONICAL.lookups();
    }

    /** A node's place in a stored object: its root, the root's metadata, or anywhere below (shared). */
    private enum Level { ROOT, METADATA, SHARED }

    private static FrozenObject build(ObjectNode o, Level level, JsonNode like) {
        ArrayMap likeMap = like instanceof FrozenObject f ? f.map() : null;
        Object[] kv = new Object[o.size() * 2];
        int i = 0;
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            String k = e.getKey();
            JsonNode v = e.getValue();
            JsonNode likeChild = likeMap == null ? null : likeMap.near(i, k);
            kv[i++] = k;
            if (level == Level.ROOT && v instanceof ObjectNode meta && !(meta instanceof FrozenObject)
                    && "metadata".equals(k)) {
                kv[i++] = build(meta, Level.METADATA, likeChild);
            } else if (level == Level.METADATA && v instanceof StringNode s && ownValue(k)) {
                // the previous version's node, else this one: no other object has it, a table entry would be all cost
                kv[i++] = likeChild instanceof StringNode l && l.stringValue().equals(s.stringValue()) ? l : v;
            } else {
                kv[i++] = freeze(v, likeChild);
            }
        }
        return new FrozenObject(new ArrayMap(kv));
    }

    /**
     * Whether a metadata field's value is the object's own: its resourceVersion, name and uid (a reference to the
     * object elsewhere, such as an owner reference, is a node of its own). A table entry per object for them was
     * about a fifth of the table's lookups, and each pushed a shared part out of it.
     */
    private static boolean ownValue(String metadataField) {
        return "resourceVersion".equals(metadataField) || "name".equals(metadataField) || "uid".equals(metadataField);
    }

    /** Whether two stored-form nodes are interchangeable: same kind, names in the same order, same children. */
    private static boolean sameContent(JsonNode a, JsonNode b) {
        if (a instanceof FrozenObject x && b instanceof FrozenObject y) {
            return x.map().sameContent(y.map());
        }
        if (a instanceof FrozenArray x && b instanceof FrozenArray y) {
            return x.sameItems(y);
        }
        if (a instanceof StringNode x && b instanceof StringNode y) {
            return x.stringValue().equals(y.stringValue());
        }
        return false;
    }

    /**
     * A node's hash for the sharing table: the same for nodes that are {@link #sameContent the same}, and mixed at
     * every level. {@code hashCode} cannot serve: a Map's is the sum of its fields' and a List's a polynomial of
     * its items', both linear, so stored parts that differ only in a cluster's name or a Pod's IP inside a few
     * fields summed to one value by the hundred thousand, and such parts all fell into a few places of the table.
     */
    static int tableHash(JsonNode node) {
        if (node instanceof FrozenObject f) {
            return f.tableHash();
        }
        if (node instanceof FrozenArray a) {
            return a.tableHash();
        }
        if (node instanceof StringNode text) {
            return stringHash(text.stringValue());
        }
        return fold(node.hashCode());
    }

    /**
     * FNV-1a over the chars, folded: {@code String.hashCode} is linear too, and a string holding a name twice (KubeRay's
     * wait-gcs-ready script holds the head's address twice) multiplies the name's hash by an even number, so such
     * strings of different clusters shared a handful of hashes.
     */
    private static int stringHash(String text) {
        long h = 0xCBF29CE484222325L ^ text.length();
        for (int i = 0, n = text.length(); i < n; i++) {
            h = (h ^ text.charAt(i)) * 0x100000001B3L;
        }
        return fold(h);
    }

    /** One step of a multiply-xorshift mixer over 64 bits (splitmix64's constants). */
    private static long step(long h, int value) {
        h = (h ^ value) * 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 31);
    }

    private static int fold(long h) {
        h *= 0x94D049BB133111EBL;
        h ^= h >>> 32;
        int folded = (int) h;
        return folded == 0 ? 1 : folded; // 0 stands for "not computed yet"
    }

    /** Children are canonical, so containers are the same only when identical; scalars when equal and of one type. */
    private static boolean sameChild(JsonNode a, JsonNode b) {
        return a == b || !(a instanceof ContainerNode<?>) && a.getClass() == b.getClass() && a.equals(b);
    }

    /** A stored object node. */
    private static final class FrozenObject extends ObjectNode {
        private static final long serialVersionUID = 1L;
        /** {@link FrozenTrees#tableHash}, computed on first need (0 = not yet; the field fills the object's padding). */
        private transient int tableHash;

        FrozenObject(ArrayMap children) {
            super(NODES, children);
        }

        ArrayMap map() {
            return (ArrayMap) _children;
        }

        int tableHash() {
            int h = tableHash;
            if (h == 0) {
                Object[] kv = map().kv;
                long acc = 0x6A09E667F3BCC909L + kv.length;
                for (int i = 0; i < kv.length; i += 2) {
                    acc = step(step(acc, kv[i].hashCode()), FrozenTrees.tableHash((JsonNode) kv[i + 1]));
                }
                h = fold(acc);
                tableHash = h; // racy but idempotent: every thread computes the same value
            }
            return h;
        }

        /** The copy without the entry objects the generic copy makes for every field. */
        @Override
        public ObjectNode deepCopy() {
            ObjectNode copy = NODES.objectNode();
            map().forEach((k, v) -> copy.set(k, v.deepCopy()));
            return copy;
        }
    }

    /** A stored array node. */
    private static final class FrozenArray extends ArrayNode {
        private static final long serialVersionUID = 1L;
        /** {@link FrozenTrees#tableHash}, computed on first need (0 = not yet). */
        private transient int tableHash;

        FrozenArray(List<JsonNode> children) {
            super(NODES, children);
        }

        int tableHash() {
            int h = tableHash;
            if (h == 0) {
                long acc = 0xBB67AE8584CAA73BL + size();
                for (int i = 0, n = size(); i < n; i++) {
                    acc = step(acc, FrozenTrees.tableHash(get(i)));
                }
                h = fold(acc);
                tableHash = h;
            }
            return h;
        }

        boolean sameItems(FrozenArray other) {
            int n = size();
            if (n != other.size()) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (!sameChild(get(i), other.get(i))) {
                    return false;
                }
            }
            return true;
        }

    }

    /**
     * A read-only map in insertion order over one array of alternating names and values, its hash computed once.
     * Small objects are looked up by scanning, larger ones through an open-addressing index of positions.
     */
    private static final class ArrayMap extends AbstractMap<String, JsonNode> {
        private final Object[] kv;
        private final int hash;
        /** Position + 1 of each name by its hash, 0 = free; null for small objects. */
        private final int[] slots;

        ArrayMap(Object[] kv) {
            this.kv = kv;
            int h = 0;
            for (int i = 0; i < kv.length; i += 2) {
                h += kv[i].hashCode() ^ kv[i + 1].hashCode();
            }
            this.hash = h;
            int n = kv.length / 2;
            if (n <= MAX_SCANNED) {
                this.slots = null;
            } else {
                int[] s = new int[Integer.highestOneBit(n * 2 - 1) << 1];
                for (int i = 0; i < n; i++) {
                    int j = spread(kv[2 * i].hashCode()) & (s.length - 1);
                    while (s[j] != 0) {
                        j = (j + 1) & (s.length - 1);
                    }
                    s[j] = i + 1;
                }
                this.slots = s;
            }
        }

        private static int spread(int h) {
            return h ^ (h >>> 16);
        }

        private int indexOf(Object key) {
            if (slots == null) {
                // names are nearly always the same (interned) instances as the key asked for: comparing references
                // first does not touch the name strings, which lie elsewhere in the heap
                for (int i = 0; i < kv.length; i += 2) {
                    if (kv[i] == key) {
                        return i;
                    }
                }
                for (int i = 0; i < kv.length; i += 2) {
                    if (kv[i].equals(key)) {
                        return i;
                    }
                }
                return -1;
            }
            if (key == null) {
                return -1;
            }
            for (int j = spread(key.hashCode()) & (slots.length - 1); slots[j] != 0; j = (j + 1) & (slots.length - 1)) {
                int i = 2 * (slots[j] - 1);
                if (kv[i].equals(key)) {
                    return i;
                }
            }
            return -1;
        }

        /** The name at {@code i} (an index into the names and values, so even), or null past the end. */
        String keyAt(int i) {
            return i < kv.length ? (String) kv[i] : null;
        }

        /** A new array of {@code length} holding this map's first {@code n} names and values ({@code n} even). */
        Object[] prefix(int n, int length) {
            Object[] out = new Object[length];
            System.arraycopy(kv, 0, out, 0, n);
            return out;
        }

        /** The value of {@code key}, looked for first at {@code i} (as {@link #keyAt}), where it usually is. */
        JsonNode near(int i, String key) {
            if (i < kv.length && kv[i].equals(key)) {
                return (JsonNode) kv[i + 1];
            }
            return get(key);
        }

        /** This map with {@code key} set to {@code value}: replaced where it is, or appended. */
        ArrayMap with(String key, JsonNode value) {
            int i = indexOf(key);
            Object[] copy;
            if (i < 0) {
                copy = Arrays.copyOf(kv, kv.length + 2);
                copy[kv.length] = key;
                copy[kv.length + 1] = value;
            } else {
                copy = kv.clone();
                copy[i + 1] = value;
            }
            return new ArrayMap(copy);
        }

        boolean sameContent(ArrayMap other) {
            if (kv.length != other.kv.length) {
                return false;
            }
            for (int i = 0; i < kv.length; i += 2) {
                if (!kv[i].equals(other.kv[i]) || !sameChild((JsonNode) kv[i + 1], (JsonNode) other.kv[i + 1])) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public JsonNode get(Object key) {
            int i = indexOf(key);
            return i < 0 ? null : (JsonNode) kv[i + 1];
        }

        @Override
        public boolean containsKey(Object key) {
            return indexOf(key) >= 0;
        }

        @Override
        public int size() {
            return kv.length / 2;
        }

        @Override
        public boolean isEmpty() {
            return kv.length == 0;
        }

        /** The keys ({@code from} 0) or the values ({@code from} 1) of {@code kv}, in order. */
        @SuppressWarnings("unchecked")
        private <T> Iterator<T> everyOther(int from) {
            return new Iterator<>() {
                private int next = from;

                @Override
                public boolean hasNext() {
                    return next < kv.length;
                }

                @Override
                public T next() {
                    if (next >= kv.length) {
                        throw new NoSuchElementException();
                    }
                    T item = (T) kv[next];
                    next += 2;
                    return item;
                }
            };
        }

        /** Not cached (as {@code AbstractMap} would, one view object per stored node): made when asked. */
        @Override
        public Collection<JsonNode> values() {
            return new AbstractCollection<>() {
                @Override
                public Iterator<JsonNode> iterator() {
                    return everyOther(1);
                }

                @Override
                public int size() {
                    return kv.length / 2;
                }
            };
        }

        /** Not cached, as {@link #values()}. */
        @Override
        public Set<String> keySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<String> iterator() {
                    return everyOther(0);
                }

                @Override
                public boolean contains(Object o) {
                    return indexOf(o) >= 0;
                }

                @Override
                public int size() {
                    return kv.length / 2;
                }
            };
        }

        @Override
        public int hashCode() {
            return hash;
        }

        /** Unequal hashes answer at once; the same names in the same order compare value by value. */
        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (o instanceof ArrayMap m) {
                if (m.hash != hash || m.kv.length != kv.length) {
                    return false;
                }
                boolean sameOrder = true;
                for (int i = 0; i < kv.length && sameOrder; i += 2) {
                    sameOrder = kv[i].equals(m.kv[i]);
                }
                if (sameOrder) {
                    for (int i = 1; i < kv.length; i += 2) {
                        if (!kv[i].equals(m.kv[i])) {
                            return false;
                        }
                    }
                    return true;
                }
            }
            return super.equals(o);
        }

        @Override
        public void forEach(BiConsumer<? super String, ? super JsonNode> action) {
            for (int i = 0; i < kv.length; i += 2) {
                action.accept((String) kv[i], (JsonNode) kv[i + 1]);
            }
        }

        @Override
        public Set<Map.Entry<String, JsonNode>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<String, JsonNode>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < kv.length;
                        }

                        @Override
                        public Map.Entry<String, JsonNode> next() {
                            if (next >= kv.length) {
                                throw new NoSuchElementException();
                            }
                            int i = next;
                            next += 2;
                            return new AbstractMap.SimpleImmutableEntry<>((String) kv[i], (JsonNode) kv[i + 1]);
                        }
                    };
                }

                @Override
                public int size() {
                    return kv.length / 2;
                }
            };
        }
    }
}
