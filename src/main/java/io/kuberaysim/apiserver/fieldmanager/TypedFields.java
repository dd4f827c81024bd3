package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.FrozenTrees;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The structured-merge-diff operations on objects of one kind, given its {@link ListTypes}: an object's field set,
 * the fields a write changed or removed, the merge of an applied configuration into a live object, and the removal
 * of fields.
 */
final class TypedFields {
    private final ListTypes lists;

    TypedFields(ListTypes lists) {
        this.lists = lists;
    }

    /** Names longer than this get an element of their own each time: few schema fields are. */
    private static final int SHARED_ELEMENT_NAME_MAX = 64;
    /** How many names have a shared element at most (a bound against objects made of ever new names). */
    private static final int SHARED_ELEMENTS_MAX = 1 << 14;
    private static final ConcurrentHashMap<String, String> FIELD_ELEMENTS = new ConcurrentHashMap<>();

    /**
     * A field's FieldsV1 path element, {@code f:<name>}: one instance per name, so the stored FieldsV1 trees, which
     * are written with these, hold the very instance the next write looks a name up with, and the stored trees'
     * lookups compare references instead of the strings (and hash them once).
     */
    static String fieldElement(String name) {
        String element = FIELD_ELEMENTS.get(name);
        if (element != null) {
            return element;
        }
        element = "f:" + name;
        if (name.length() > SHARED_ELEMENT_NAME_MAX || FIELD_ELEMENTS.size() >= SHARED_ELEMENTS_MAX) {
            return element;
        }
        String raced = FIELD_ELEMENTS.putIfAbsent(name, element);
        return raced != null ? raced : element;
    }

    /** Names with a shared element now (a measure for tests). */
    static int sharedFieldElements() {
        return FIELD_ELEMENTS.size();
    }

    // ---------------------------------------------------------------- field sets

    /** The fields of an object: scalars, atomic lists, set values and associative list items (with their fields). */
    FieldSet fieldSet(JsonNode object) {
        FieldSet root = new FieldSet();
        walkObject(object, new ArrayList<>(), root);
        return root.prune();
    }

    private void walkObject(JsonNode object, List<String> path, FieldSet node) {
        object.properties().forEach(e -> {
            if (e.getValue().isNull()) {
                return;
            }
            path.add(e.getKey());
            walkValue(e.getValue(), path, node.child(fieldElement(e.getKey())));
            path.remove(path.size() - 1);
        });
    }

    private void walkValue(JsonNode value, List<String> path, FieldSet node) {
        if (value.isObject()) {
            walkObject(value, path, node); // a map is owned through its fields, as structured-merge-diff does
        } else if (value.isArray()) {
            ListTypes.ListType type = lists.of(path);
            switch (type.kind()) {
                case ATOMIC -> node.markMember();
                case SET -> {
                    value.forEach(v -> node.child("v:" + json(v)).markMember());
                    if (value.isEmpty()) {
                        node.markMember();
                    }
                }
                case MAP -> {
                    for (JsonNode item : value) {
                        String key = itemKey(item, type);
                        if (key == null) {
                            node.markMember(); // an item without its keys: the list can only be owned whole
                            continue;
                        }
                        FieldSet child = node.child(key);
                        child.markMember();
                        walkObject(item, path, child);
                    }
                    if (value.isEmpty()) {
                        node.markMember();
                    }
                }
            }
        } else {
            node.markMember();
        }
    }

    // ---------------------------------------------------------------- an object's FieldsV1, written directly

    /** Thrown (once built, without a stack) when a level names one path element twice: the caller takes the walk. */
    private static final class Repeated extends RuntimeException {
        private static final Repeated INSTANCE = new Repeated();

        private Repeated() {
            super(null, null, false, false);
        }
    }

    /**
     * The FieldsV1 encoding of an object's field set, {@code fieldSet(object).toFieldsV1()}, written without building
     * the set, or null when the set is empty. {@code likes} are stored FieldsV1 trees of objects of this kind (nulls
     * allowed): a node whose every child is the same (stored) node as the child of a like's node at the same place is
     * that like's node, so the parts a create shares with earlier creates (a worker Pod's spec, an Event's fields)
     * are written as the very stored trees, which the store then takes as they are. Nodes of their own are
     * changeable objects, their leaves the stored {@code {}}, as {@link FieldSet#toFieldsV1()} writes them.
     */
    JsonNode fieldsV1(JsonNode object, JsonNode[] likes) {
        try {
            return encodeObject(object, new ArrayList<>(), likes, false);
        } catch (Repeated e) {
            // a list names an item twice (duplicate keys): its fields are merged, which only the set walk does
            FieldSet set = fieldSet(object);
            return set.isEmpty() ? null : set.toFieldsV1();
        }
    }

    /** One level being written: its path elements and their encodings, in the order met. */
    private static final class Level {
        private String[] keys = new String[8];
        private JsonNode[] values = new JsonNode[8];
        private int size;
        private boolean member;

        void add(String key, JsonNode value) {
            for (int i = 0; i < size; i++) {
                if (keys[i].equals(key)) {
                    if (value == FrozenTrees.emptyObject() && values[i] == value) {
                        return; // a set value met again: the same member
                    }
                    throw Repeated.INSTANCE;
                }
            }
            if (size == keys.length) {
                keys = java.util.Arrays.copyOf(keys, size * 2);
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            keys[size] = key;
            values[size++] = value;
        }

        /**
         * The level's FieldsV1 node: a like whose node has exactly these children (the same instances, and the
         * {@code "."} of a member), else a new object in FieldsV1 order; null when it holds nothing.
         */
        JsonNode encode(JsonNode[] likes) {
            if (size == 0) {
                return member ? FrozenTrees.emptyObject() : null;
            }
            int fields = size + (member ? 1 : 0);
            for (JsonNode like : likes) {
                if (like != null && like.size() == fields && (!member || like.get(".") != null) && holds(like)) {
                    return like;
                }
            }
            sort();
            ObjectNode out = Json.object();
            if (member) {
                out.set(".", FrozenTrees.emptyObject());
            }
            for (int i = 0; i < size; i++) {
                out.set(keys[i], values[i]);
            }
            return out;
        }

        private boolean holds(JsonNode like) {
            for (int i = 0; i < size; i++) {
                if (like.get(keys[i]) != values[i]) {
                    return false;
                }
            }
            return true;
        }

        /** Insertion sort by FieldSet's order: one level's elements share their kind, so by name; levels are small. */
        private void sort() {
            for (int i = 1; i < size; i++) {
                String k = keys[i];
                JsonNode v = values[i];
                int j = i - 1;
                while (j >= 0 && FieldSet.compare(keys[j], k) > 0) {
                    keys[j + 1] = keys[j];
                    values[j + 1] = values[j];
                    j--;
                }
                keys[j + 1] = k;
                values[j + 1] = v;
            }
        }
    }

    /** The likes' children under {@code key}: distinct, non-null (stored trees share equal nodes, so usually one). */
    private static JsonNode[] childLikes(JsonNode[] likes, String key) {
        JsonNode first = null;
        JsonNode[] more = null;
        int n = 0;
        for (JsonNode like : likes) {
            JsonNode c = like == null ? null : like.get(key);
            if (c == null || c == first) {
                continue;
            }
            if (first == null) {
                first = c;
                n = 1;
                continue;
            }
            if (more == null) {
                more = new JsonNode[likes.length];
                more[0] = first;
            } else if (contains(more, n, c)) {
                continue;
            }
            more[n++] = c;
        }
        if (more != null) {
            return n == more.length ? more : java.util.Arrays.copyOf(more, n);
        }
        return first == null ? NO_LIKES : new JsonNode[] {first};
    }

    private static boolean contains(JsonNode[] nodes, int n, JsonNode node) {
        for (int i = 0; i < n; i++) {
            if (nodes[i] == node) {
                return true;
            }
        }
        return false;
    }

    private static final JsonNode[] NO_LIKES = new JsonNode[0];

    /** {@code walkObject} + {@code prune} + encoding; {@code member}: the node is a member itself (a list item). */
    private JsonNode encodeObject(JsonNode object, List<String> path, JsonNode[] likes, boolean member) {
        Level level = new Level();
        level.member = member;
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            JsonNode v = e.getValue();
            if (v.isNull()) {
                continue;
            }
            String key = fieldElement(e.getKey());
            path.add(e.getKey());
            JsonNode child = encodeValue(v, path, likes.length == 0 ? NO_LIKES : childLikes(likes, key));
            path.remove(path.size() - 1);
            if (child != null) {
                level.add(key, child);
            }
        }
        return level.encode(likes);
    }

    /** {@code walkValue} + {@code prune} + encoding of one value. */
    private JsonNode encodeValue(JsonNode value, List<String> path, JsonNode[] likes) {
        if (value.isObject()) {
            return encodeObject(value, path, likes, false);
        }
        if (!value.isArray()) {
            return FrozenTrees.emptyObject();
        }
        ListTypes.ListType type = lists.of(path);
        if (type.kind() == ListTypes.ListType.Kind.ATOMIC || value.isEmpty()) {
            return FrozenTrees.emptyObject();
        }
        Level level = new Level();
        for (JsonNode item : value) {
            if (type.kind() == ListTypes.ListType.Kind.SET) {
                level.add("v:" + json(item), FrozenTrees.emptyObject());
                continue;
            }
            String key = itemKey(item, type);
            if (key == null) {
                level.member = true; // an item without its keys: the list can only be owned whole
                continue;
            }
            level.add(key, encodeObject(item, path, likes.length == 0 ? NO_LIKES : childLikes(likes, key), true));
        }
        return level.encode(likes);
    }

    /** {@code k:{"name":"c"}}: the key fields of an associative list item in name order; null without them. */
    static String itemKey(JsonNode item, ListTypes.ListType type) {
        if (!item.isObject()) {
            return null;
        }
        if (type.keys().size() == 1) { // most lists (containers, env, conditions): written out directly
            String k = type.keys().get(0);
            JsonNode v = item.get(k);
            if (v == null && k.equals("protocol")) {
                return "k:{\"protocol\":\"TCP\"}";
            }
            return v == null || v.isNull() ? null : "k:{\"" + k + "\":" + json(v) + "}";
        }
        Map<String, JsonNode> sorted = new TreeMap<>();
        for (String k : type.keys()) {
            JsonNode v = item.get(k);
            if (v == null && k.equals("protocol")) {
                v = Json.MAPPER.getNodeFactory().stringNode("TCP"); // kube's default, present once stored
            }
            if (v == null || v.isNull()) {
                return null;
            }
            sorted.put(k, v);
        }
        StringBuilder key = new StringBuilder("k:{");
        sorted.forEach((k, v) -> key.append(key.length() > 3 ? "," : "").append(json(Json.MAPPER.getNodeFactory()
                .stringNode(k))).append(':').append(json(v)));
        return key.append('}').toString();
    }

    /**
     * A value's JSON text as Jackson writes it; strings that need no escaping and integers are written directly (a
     * Jackson writer per list item key was a tenth of field management).
     */
    static String json(JsonNode v) {
        if (v.isString()) {
            String s = v.asString();
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c == '"' || c == '\\') {
                    return v.toString();
                }
            }
            return "\"" + s + "\"";
        }
        if (v.isInt() || v.isLong()) {
            return v.asString();
        }
        return v.toString();
    }

    // ---------------------------------------------------------------- changes of a write

    /** What a write did to the fields: set or changed, and removed. */
    record Changes(FieldSet changed, FieldSet removed) {
        boolean isEmpty() {
            return changed.isEmpty() && removed.isEmpty();
        }
    }

    Changes changes(JsonNode before, JsonNode after) {
        FieldSet changed = new FieldSet();
        FieldSet removed = new FieldSet();
        diffObject(before == null ? Json.object() : before, after, new ArrayList<>(), changed, removed);
        return new Changes(changed.prune(), removed.prune());
    }

    private void diffObject(JsonNode before, JsonNode after, List<String> path, FieldSet changed, FieldSet removed) {
        // the fields of before, then those only after has; most are the same value (often the same stored node),
        // so nothing is built for them, not even their path element
        for (Map.Entry<String, JsonNode> e : before.properties()) {
            diffField(e.getKey(), present(e.getValue()), present(after.get(e.getKey())), path, changed, removed);
        }
        for (Map.Entry<String, JsonNode> e : after.properties()) {
            if (!before.has(e.getKey())) {
                diffField(e.getKey(), null, present(e.getValue()), path, changed, removed);
            }
        }
    }

    private void diffField(String f, JsonNode o, JsonNode n, List<String> path, FieldSet changed, FieldSet removed) {
        if (o == n || o != null && o.equals(n)) {
            return;
        }
        path.add(f);
        String key = fieldElement(f);
        if (o == null) {
            walkValue(n, path, changed.child(key));
        } else if (n == null) {
            walkValue(o, path, removed.child(key));
        } else {
            diffValue(o, n, path, changed.child(key), removed.child(key));
        }
        path.remove(path.size() - 1);
    }

    private static JsonNode present(JsonNode v) {
        return v == null || v.isNull() ? null : v;
    }

    private void diffValue(JsonNode o, JsonNode n, List<String> path, FieldSet changed, FieldSet removed) {
        if (o.isObject() && n.isObject() && !o.isEmpty() && !n.isEmpty()) {
            diffObject(o, n, path, changed, removed);
            return;
        }
        if (o.isArray() && n.isArray()) {
            ListTypes.ListType type = lists.of(path);
            if (type.kind() == ListTypes.ListType.Kind.SET) {
                n.forEach(v -> {
                    if (!contains(o, v)) {
                        changed.child("v:" + json(v)).markMember();
                    }
                });
                o.forEach(v -> {
                    if (!contains(n, v)) {
                        removed.child("v:" + json(v)).markMember();
                    }
                });
                return;
            }
            if (type.kind() == ListTypes.ListType.Kind.MAP) {
                Map<String, JsonNode> before = items(o, type);
                Map<String, JsonNode> after = items(n, type);
                if (before != null && after != null) {
                    after.forEach((k, item) -> {
                        JsonNode old = before.get(k);
                        if (old == null) {
                            FieldSet child = changed.child(k);
                            child.markMember();
                            walkObject(item, path, child);
                        } else if (!old.equals(item)) {
                            diffObject(old, item, path, changed.child(k), removed.child(k));
                        }
                    });
                    before.forEach((k, item) -> {
                        if (!after.containsKey(k)) {
                            FieldSet child = removed.child(k);
                            child.markMember();
                            walkObject(item, path, child);
                        }
                    });
                    return;
                }
            }
        }
        changed.markMember();
    }

    private static boolean contains(JsonNode array, JsonNode value) {
        for (JsonNode v : array) {
            if (v.equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** An associative list's items by key, in order; null when an item lacks its keys. */
    private static Map<String, JsonNode> items(JsonNode array, ListTypes.ListType type) {
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        for (JsonNode item : array) {
            String key = itemKey(item, type);
            if (key == null) {
                return null;
            }
            out.put(key, item);
        }
        return out;
    }

    // ---------------------------------------------------------------- apply

    /** The live object with an applied configuration merged in: objects field by field, lists by their type. */
    JsonNode merge(JsonNode live, JsonNode applied, List<String> path) {
        if (live == null || live.isNull()) {
            return applied.deepCopy();
        }
        if (live.isObject() && applied.isObject()) {
            ObjectNode out = ((ObjectNode) live).deepCopy();
            applied.properties().forEach(e -> {
                if (e.getValue().isNull()) {
                    return;
                }
                path.add(e.getKey());
                out.set(e.getKey(), merge(live.get(e.getKey()), e.getValue(), path));
                path.remove(path.size() - 1);
            });
            return out;
        }
        if (live.isArray() && applied.isArray()) {
            ListTypes.ListType type = lists.of(path);
            if (type.kind() == ListTypes.ListType.Kind.SET) {
                ArrayNode out = ((ArrayNode) live).deepCopy();
                applied.forEach(v -> {
                    if (!contains(out, v)) {
                        out.add(v.deepCopy());
                    }
                });
                return out;
            }
            if (type.kind() == ListTypes.ListType.Kind.MAP) {
                Map<String, JsonNode> before = items(live, type);
                Map<String, JsonNode> after = items(applied, type);
                if (before != null && after != null) {
                    Map<String, JsonNode> merged = new java.util.LinkedHashMap<>(before);
                    after.forEach((k, item) -> merged.put(k, merge(before.get(k), item, path)));
                    ArrayNode out = Json.MAPPER.createArrayNode();
                    merged.values().forEach(out::add);
                    return out;
                }
            }
        }
        return applied.deepCopy();
    }

    /** Removes the members of {@code fields} from an object (fields, list items, set values). */
    void remove(JsonNode object, FieldSet fields) {
        if (!(object instanceof ObjectNode o)) {
            return;
        }
        fields.children().forEach((key, sub) -> {
            if (!key.startsWith("f:")) {
                return;
            }
            String name = key.substring(2);
            JsonNode value = o.get(name);
            if (value == null) {
                return;
            }
            if (sub.member() && sub.children().isEmpty()) {
                o.remove(name);
            } else if (value.isObject()) {
                remove(value, sub);
            } else if (value.isArray()) {
                removeFromList((ArrayNode) value, sub);
            }
        });
    }

    private void removeFromList(ArrayNode list, FieldSet fields) {
        for (int i = list.size() - 1; i >= 0; i--) {
            JsonNode item = list.get(i);
            FieldSet sub = fields.get("v:" + json(item));
            if (sub != null) {
                list.remove(i);
                continue;
            }
            for (Map.Entry<String, FieldSet> e : fields.children().entrySet()) {
                if (e.getKey().startsWith("k:") && matchesKey(item, e.getKey())) {
                    if (e.getValue().member()) {
                        list.remove(i);
                    } else {
                        remove(item, e.getValue());
                    }
                    break;
                }
            }
        }
    }

    private static boolean matchesKey(JsonNode item, String key) {
        if (!item.isObject()) {
            return false;
        }
        JsonNode wanted = Json.MAPPER.readTree(key.substring(2));
        for (Map.Entry<String, JsonNode> e : wanted.properties()) {
            JsonNode v = item.get(e.getKey());
            if (v == null && e.getKey().equals("protocol")) {
                v = Json.MAPPER.getNodeFactory().stringNode("TCP");
            }
            if (!e.getValue().equals(v)) {
                return false;
            }
        }
        return true;
    }

    /** The value at a path of path elements, or null when absent. */
    static JsonNode valueAt(JsonNode root, List<String> elements) {
        JsonNode cur = root;
        for (String e : elements) {
            if (cur == null) {
                return null;
            }
            if (e.startsWith("f:")) {
                cur = cur.isObject() ? present(cur.get(e.substring(2))) : null;
            } else if (e.startsWith("k:")) {
                JsonNode found = null;
                if (cur.isArray()) {
                    for (JsonNode item : cur) {
                        if (matchesKey(item, e)) {
                            found = item;
                            break;
                        }
                    }
                }
                cur = found;
            } else if (e.startsWith("v:")) {
                JsonNode v = Json.MAPPER.readTree(e.substring(2));
                cur = cur.isArray() && contains(cur, v) ? v : null;
            } else {
                return null;
            }
        }
        return cur;
    }
}
