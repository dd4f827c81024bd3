package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
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
 * set), {@code i:0}. A node is a member of the set when it has no children or carries {@code "."}. Mutable; each
 * write builds its own sets.
 */
public final class FieldSet {
    private static final Comparator<String> ORDER = Comparator.comparingInt(FieldSet::rank)
            .thenComparing(Comparator.naturalOrder());

    private final TreeMap<String, FieldSet> children = new TreeMap<>(ORDER);
    private boolean member;

    private static int rank(String key) {
        return switch (key.charAt(0)) {
            case 'f' -> 0;
            case 'v' -> 1;
            case 'i' -> 2;
            default -> 3; // k:
        };
    }

    /** The node under {@code key}, created when absent. */
    FieldSet child(String key) {
        return children.computeIfAbsent(key, k -> new FieldSet());
    }

    FieldSet get(String key) {
        return children.get(key);
    }

    Map<String, FieldSet> children() {
        return children;
    }

    void markMember() {
        member = true;
    }

    boolean member() {
        return member;
    }

    public boolean isEmpty() {
        return !member && children.isEmpty();
    }

    /** Drops the nodes that hold no member (left over by a walk that found nothing below them). */
    FieldSet prune() {
        children.values().forEach(FieldSet::prune);
        children.values().removeIf(FieldSet::isEmpty);
        return this;
    }

    /** The paths in either set. */
    public FieldSet union(FieldSet other) {
        FieldSet out = copy();
        out.addAll(other);
        return out;
    }

    private void addAll(FieldSet other) {
        member |= other.member;
        other.children.forEach((k, v) -> child(k).addAll(v));
    }

    /** The paths of this set that are not in {@code other}. */
    public FieldSet difference(FieldSet other) {
        FieldSet out = new FieldSet();
        out.member = member && (other == null || !other.member);
        children.forEach((k, v) -> {
            FieldSet d = v.difference(other == null ? null : other.children.get(k));
            if (!d.isEmpty()) {
                out.children.put(k, d);
            }
        });
        return out;
    }

    /** The paths in both sets. */
    public FieldSet intersection(FieldSet other) {
        FieldSet out = new FieldSet();
        out.member = member && other.member;
        children.forEach((k, v) -> {
            FieldSet o = other.children.get(k);
            if (o != null) {
                FieldSet i = v.intersection(o);
                if (!i.isEmpty()) {
                    out.children.put(k, i);
                }
            }
        });
        return out;
    }

    FieldSet copy() {
        FieldSet out = new FieldSet();
        out.member = member;
        children.forEach((k, v) -> out.children.put(k, v.copy()));
        return out;
    }

    /** Every member as its list of path elements, in FieldsV1 order. */
    public List<List<String>> members() {
        List<List<String>> out = new ArrayList<>();
        collect(new ArrayList<>(), out);
        return out;
    }

    private void collect(List<String> prefix, List<List<String>> out) {
        if (member || (children.isEmpty() && !prefix.isEmpty())) {
            out.add(List.copyOf(prefix));
        }
        children.forEach((k, v) -> {
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

    /** The FieldsV1 encoding: nested objects, {@code "."} marking a member that has children. */
    public ObjectNode toFieldsV1() {
        ObjectNode out = Json.object();
        if (member && !children.isEmpty()) {
            out.putObject(".");
        }
        children.forEach((k, v) -> out.set(k, v.toFieldsV1()));
        return out;
    }

    /** Reads a FieldsV1 tree (the root itself is never a member). */
    public static FieldSet fromFieldsV1(JsonNode fields) {
        FieldSet root = new FieldSet();
        if (fields != null && fields.isObject()) {
            fields.properties().forEach(e -> {
                if (!e.getKey().equals(".") && !e.getKey().isEmpty()) {
                    root.children.put(e.getKey(), read(e.getValue()));
                }
            });
        }
        return root;
    }

    private static FieldSet read(JsonNode node) {
        FieldSet s = new FieldSet();
        if (node == null || !node.isObject() || node.isEmpty()) {
            s.member = true;
            return s;
        }
        node.properties().forEach(e -> {
            if (e.getKey().equals(".")) {
                s.member = true;
            } else if (!e.getKey().isEmpty()) {
                s.children.put(e.getKey(), read(e.getValue()));
            }
        });
        return s;
    }
}
