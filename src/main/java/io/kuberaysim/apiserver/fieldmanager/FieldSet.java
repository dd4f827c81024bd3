package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.FrozenTrees;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of field paths as structured-merge-diff keeps them, stored as a tree whose keys are FieldsV1 path elements:
 * {@code f:name} (a field), {@code k:{"name":"c"}} (an item of an associative list), {@code v:"x"} (a value of a
 * set), {@code i:0}. A node is a member of the set when it has no children or carries {@code "."}.
 *
 * <p>A set read from a stored {@code fieldsV1} tree stays backed by that tree: a level is only read when an operation
 * walks into it, and an untouched subtree is written back as the very tree it was read from. Every write reads
 * every managedFields entry of the object but touches few of their fields, so this spares reading and re-encoding
 * whole entries. The set operations never change their operands, and their results share unchanged subtrees with
 * them; only a set being built ({@link #child}, {@link #markMember}, {@link #prune}) is changed in place.
 */
public final class FieldSet {
    /** Written out rather than composed: every level of every set built is a TreeMap ordered by it. */
    private static final Comparator<String> ORDER = FieldSet::compare;

    /** The FieldsV1 object this set was read from (an object), or null for a set built or computed here. */
    private final JsonNode source;
    /** The children by path element: null while none, or while {@code source} has not been read yet. */
    private TreeMap<String, FieldSet> children;
    private boolean member;

    FieldSet() {
        this(null, false);
    }

    private FieldSet(JsonNode source, boolean member) {
        this.source = source;
        this.member = member;
    }

    /** FieldsV1 order: fields, then set values, positions, list items; by name within each. */
    static int compare(String a, String b) {
        if (a == b) {
            return 0;
        }
        int byKind = rank(a) - rank(b);
        return byKind != 0 ? byKind : a.compareTo(b);
    }

    private static int rank(String key) {
        return switch (key.charAt(0)) {
            case 'f' -> 0;
            case 'v' -> 1;
            case 'i' -> 2;
            default -> 3; // k:
        };
    }

    /** The node under {@code key} of a set being built, created when absent. */
    FieldSet child(String key) {
        building();
        if (children == null) {
            children = new TreeMap<>(ORDER);
        }
        return children.computeIfAbsent(key, k -> new FieldSet());
    }

    /** The node under {@code key}, or null; a set read from a tree looks it up there without reading the level. */
    FieldSet get(String key) {
        if (children != null || source == null) {
            return children == null ? null : children.get(key);
        }
        return key.isEmpty() || key.equals(".") ? null : node(source.get(key));
    }

    /** The children in FieldsV1 order (read-only). */
    Map<String, FieldSet> children() {
        if (children == null && source != null) {
            TreeMap<String, FieldSet> read = new TreeMap<>(ORDER);
            source.properties().forEach(e -> {
                if (!e.getKey().equals(".") && !e.getKey().isEmpty()) {
                    read.put(e.getKey(), node(e.getValue()));
                }
            });
            children = read;
        }
        return children == null ? Map.of() : children;
    }

    void markMember() {
        building();
        member = true;
    }

    boolean member() {
        return member;
    }

    private void building() {
        if (source != null) {
            throw new IllegalStateException("a field set read from fieldsV1 is never changed");
        }
    }

    public boolean isEmpty() {
        return !member && children().isEmpty();
    }

    /** Drops the nodes that hold no member (left over by a walk that found nothing below them). */
    FieldSet prune() {
        if (source == null && children != null) {
            children.values().forEach(FieldSet::prune);
            children.values().removeIf(FieldSet::isEmpty);
        }
        return this;
    }

    /** The paths in either set. */
    public FieldSet union(FieldSet other) {
        if (other == null || other.isEmpty() || other == this) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        FieldSet out = new FieldSet();
        out.member = member || other.member;
        out.children = childrenCopy();
        other.children().forEach((k, v) -> out.children.merge(k, v, FieldSet::union));
        return out;
    }

    /** The paths of this set that are not in {@code other} (this very set when none of them is). */
    public FieldSet difference(FieldSet other) {
        if (other == null || other.isEmpty()) {
            return this;
        }
        boolean outMember = member && !other.member;
        TreeMap<String, FieldSet> out = null;
        // walk the keys of the set already read (a built set), looking the others up in the one read from a tree
        boolean walkMine = source == null || other.source != null;
        for (Map.Entry<String, FieldSet> e : (walkMine ? children() : other.children()).entrySet()) {
            FieldSet mine = walkMine ? e.getValue() : get(e.getKey());
            FieldSet theirs = walkMine ? other.get(e.getKey()) : e.getValue();
            if (mine == null || theirs == null) {
                continue;
            }
            FieldSet d = mine.difference(theirs);
            if (d != mine) {
                if (out == null) {
                    out = childrenCopy();
                }
                if (d.isEmpty()) {
                    out.remove(e.getKey());
                } else {
                    out.put(e.getKey(), d);
                }
            }
        }
        if (out == null && outMember == member) {
            return this;
        }
        FieldSet result = new FieldSet();
        result.member = outMember;
        result.children = out != null ? out : childrenCopy();
        return result;
    }

    /** A changeable copy of the children map (sharing the children themselves). */
    private TreeMap<String, FieldSet> childrenCopy() {
        TreeMap<String, FieldSet> copy = new TreeMap<>(ORDER);
        copy.putAll(children());
        return copy;
    }

    /** The paths in both sets. */
    public FieldSet intersection(FieldSet other) {
        FieldSet out = new FieldSet();
        out.member = member && other.member;
        children().forEach((k, v) -> {
            FieldSet o = other.get(k);
            if (o != null) {
                FieldSet i = v.intersection(o);
                if (!i.isEmpty()) {
                    if (out.children == null) {
                        out.children = new TreeMap<>(ORDER);
                    }
                    out.children.put(k, i);
                }
            }
        });
        return out;
    }

    /** Whether the sets have a path in common ({@code !intersection(other).isEmpty()}, without building it). */
    public boolean intersects(FieldSet other) {
        if (member && other.member) {
            return true;
        }
        boolean walkMine = source == null || other.source != null;
        Map<String, FieldSet> walked = walkMine ? children() : other.children();
        for (Map.Entry<String, FieldSet> e : walked.entrySet()) {
            FieldSet o = walkMine ? other.get(e.getKey()) : get(e.getKey());
            if (o != null && e.getValue().intersects(o)) {
                return true;
            }
        }
        return false;
    }

    /** Every member as its list of path elements, in FieldsV1 order. */
    public List<List<String>> members() {
        List<List<String>> out = new ArrayList<>();
        collect(new ArrayList<>(), out);
        return out;
    }

    private void collect(List<String> prefix, List<List<String>> out) {
        if (member || (children().isEmpty() && !prefix.isEmpty())) {
            out.add(List.copyOf(prefix));
        }
        children().forEach((k, v) -> {
            prefix.add(k);
            v.collect(prefix, out);
            prefix.remove(prefix.size() - 1);
        });
    }

    /** A path as structured-merge-diff prints it: {@code .spec.containers[name="c"].image}. */
    public static String pathString(List<String> elements) {
        StringBuilder sb = new StringBuilder();
        for (String e : elements) {
            String body = e.substring(2);
            switch (e.charAt(0)) {
                case 'f' -> sb.append('.').append(body);
                case 'v' -> sb.append("[=").append(body).append(']');
                case 'i' -> sb.append('[').append(body).append(']');
                default -> {
                    List<String> parts = new ArrayList<>();
                    Json.MAPPER.readTree(body).properties().forEach(p -> parts.add(p.getKey() + "=" + p.getValue()));
                    sb.append('[').append(String.join(",", parts)).append(']');
                }
            }
        }
        return sb.toString();
    }

    /**
     * The FieldsV1 encoding: nested objects, {@code "."} marking a member that has children. A subtree read from a
     * stored tree and left as it was is that tree itself, and every {@code {}} below the root is the stored one
     * (both read-only).
     */
    public ObjectNode toFieldsV1() {
        if (source != null) {
            return (ObjectNode) source;
        }
        ObjectNode out = Json.object();
        if (member && children != null && !children.isEmpty()) {
            out.set(".", FrozenTrees.emptyObject());
        }
        if (children != null) {
            children.forEach((k, v) -> out.set(k, v.encodedChild()));
        }
        return out;
    }

    /**
     * This set below another one in FieldsV1: a leaf is the stored {@code {}} (read-only), as most nodes of a
     * managedFields entry are, which the store then neither copies nor looks up.
     */
    private JsonNode encodedChild() {
        return source == null && (children == null || children.isEmpty()) ? FrozenTrees.emptyObject() : toFieldsV1();
    }

    /** Reads a FieldsV1 tree (the root itself is never a member); its levels are read as they are walked. */
    public static FieldSet fromFieldsV1(JsonNode fields) {
        return fields != null && fields.isObject() ? new FieldSet(fields, false) : new FieldSet();
    }

    /** A node of a FieldsV1 tree: an empty object (or anything else) is a member leaf, {@code "."} marks members. */
    private static FieldSet node(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (!node.isObject() || node.isEmpty()) {
            FieldSet leaf = new FieldSet();
            leaf.member = true;
            return leaf;
        }
        return new FieldSet(node, node.has("."));
    }
}
