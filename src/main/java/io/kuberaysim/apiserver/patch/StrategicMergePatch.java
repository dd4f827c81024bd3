package io.kuberaysim.apiserver.patch;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kubernetes strategic merge patch ({@code application/strategic-merge-patch+json}) for built-in kinds, as sent
 * by {@code kubectl apply}/{@code kubectl patch} on pods, services and jobs.
 *
 * <p>Semantics follow apimachinery's {@code strategicpatch} server-side apply path:
 * <ul>
 *   <li>maps merge recursively; {@code null} deletes a key;</li>
 *   <li>lists of objects with a merge key (see {@link MergeKeys}) merge element-wise by that key: matching
 *       elements merge, new ones are added; other lists are replaced; scalar lists with the merge strategy
 *       ({@code metadata.finalizers}) are unioned;</li>
 *   <li>{@code {"$patch":"replace"}} on a map, or as a list element, replaces instead of merging;
 *       {@code {"$patch":"delete"}} on a map empties it, as a list element (with the merge key) deletes the matching
 *       element; {@code $patch: merge} is the default (accepted explicitly on maps, rejected in lists as the
 *       real server does);</li>
 *   <li>{@code $setElementOrder/<list>} fixes the order of the merged list, {@code $retainKeys} drops map keys that
 *       are not listed, {@code $deleteFromPrimitiveList/<list>} removes scalars from a merging scalar list.</li>
 * </ul>
 * Result order: items named by the patch come in patch order, items only on the server keep their relative
 * order and are interleaved by their original position, as the real server does.
 *
 * <p>Directives never end up in the result. Inputs are not modified.
 */
public final class StrategicMergePatch {

    static final String DIRECTIVE = "$patch";
    static final String DELETE = "delete";
    static final String REPLACE = "replace";
    static final String MERGE = "merge";
    static final String RETAIN_KEYS = "$retainKeys";
    static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";
    static final String SET_ELEMENT_ORDER = "$setElementOrder";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final MergeKeys keys;

    private StrategicMergePatch(MergeKeys keys) {
        this.keys = keys;
    }

    /**
     * Applies a strategic merge patch and returns the new object.
     *
     * @param original the current object ({@code null} or missing counts as {@code {}})
     * @param patch    the patch document, a JSON object
     * @param keys     list merge metadata, normally {@link MergeKeys#builtins()}
     * @throws PatchException if the patch is not an object or uses a directive incorrectly
     */
    public static JsonNode apply(JsonNode original, JsonNode patch, MergeKeys keys) {
        if (patch == null || !patch.isObject()) {
            throw new PatchException("strategic merge patch must be a JSON object, got "
                    + (patch == null ? "nothing" : patch.getNodeType().toString().toLowerCase()));
        }
        ObjectNode target;
        if (original == null || original.isNull() || original.isMissingNode()) {
            target = NODES.objectNode();
        } else if (original.isObject()) {
            target = ((ObjectNode) original).deepCopy();
        } else {
            throw new PatchException("invalid JSON document");
        }
        return new StrategicMergePatch(keys).mergeMap(target, ((ObjectNode) patch).deepCopy(), List.of());
    }

    // ------------------------------------------------------------------------------------------------ maps

    /** Merges {@code patch} into {@code original} (both private copies, so mutation is safe). */
    private ObjectNode mergeMap(ObjectNode original, ObjectNode patch, List<String> path) {
        JsonNode directive = patch.get(DIRECTIVE);
        if (directive != null) {
            if (isText(directive, REPLACE)) {
                patch.remove(DIRECTIVE);
                return (ObjectNode) clean(patch);
            }
            if (isText(directive, DELETE)) {
                return NODES.objectNode();
            }
            if (isText(directive, MERGE)) {
                // apimachinery rejects an explicit "merge" on a map; accepting it as the default costs nothing.
                patch.remove(DIRECTIVE);
            } else {
                throw new PatchException("unknown patch type: " + text(directive) + " in map: " + patch);
            }
        }
        applyRetainKeys(original, patch);
        applySetElementOrder(original, patch, path);

        for (Map.Entry<String, JsonNode> e : new ArrayList<>(patch.properties())) {
            String key = e.getKey();
            JsonNode patchValue = e.getValue();
            boolean deleteList = false;
            if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                key = extractKey(key, DELETE_FROM_PRIMITIVE_LIST, "invalid patch format of primitive list");
                deleteList = true;
            }
            if (patchValue.isNull()) {
                original.remove(key);
                continue;
            }
            JsonNode originalValue = original.get(key);
            if (originalValue == null || kind(originalValue) != kind(patchValue)) {
                // Absent, or a different JSON type: the patch value wins (a deletion list has nothing to delete).
                if (!deleteList) {
                    JsonNode cleaned = clean(patchValue);
                    if (cleaned == null) {
                        original.remove(key);
                    } else {
                        original.set(key, cleaned);
                    }
                }
                continue;
            }
            List<String> childPath = append(path, key);
            if (originalValue.isObject()) {
                original.set(key, mergeMap((ObjectNode) originalValue, (ObjectNode) patchValue, childPath));
            } else if (originalValue.isArray()) {
                original.set(key, mergeListField((ArrayNode) originalValue, (ArrayNode) patchValue, childPath,
                        deleteList));
            } else {
                original.set(key, patchValue);
            }
        }
        return original;
    }

    /** {@code $retainKeys}: keys of the original not listed are dropped; the patch may only set listed keys. */
    private static void applyRetainKeys(ObjectNode original, ObjectNode patch) {
        JsonNode retain = patch.remove(RETAIN_KEYS);
        if (retain == null) {
            return;
        }
        if (!retain.isArray()) {
            throw new PatchException("invalid patch format of retainKeys");
        }
        Set<String> kept = new HashSet<>();
        retain.forEach(k -> kept.add(k.isString() ? k.stringValue() : k.toString()));
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String k = e.getKey();
            if (e.getValue().isNull() || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            if (!kept.contains(k)) {
                throw new PatchException("invalid patch format of retainKeys");
            }
        }
        List<String> dropped = new ArrayList<>();
        for (String k : original.propertyNames()) {
            if (!kept.contains(k)) {
                dropped.add(k);
            }
        }
        original.remove(dropped);
    }

    // ----------------------------------------------------------------------------------------------- lists

    /** A list-valued field present in both documents: merge if the field merges, otherwise replace. */
    private JsonNode mergeListField(ArrayNode original, ArrayNode patch, List<String> path, boolean deleteList) {
        Optional<String> mergeKey = keys.mergeKey(path);
        if (mergeKey.isPresent() || keys.mergesPrimitives(path) || deleteList) {
            return toArray(mergeList(elements(original), elements(patch), path, mergeKey.orElse(""), deleteList));
        }
        return clean(patch);
    }

    private List<JsonNode> mergeList(List<JsonNode> original, List<JsonNode> patch, List<String> path,
                                     String mergeKey, boolean deleteList) {
        if (original.isEmpty() && patch.isEmpty()) {
            return original;
        }
        Kind kind = elementKind(original, patch);
        List<JsonNode> merged;
        List<JsonNode> patchItems = patch;
        List<JsonNode> serverOrder = original;
        if (kind != Kind.OBJECT) {
            if (deleteList) {
                Set<Object> gone = new HashSet<>();
                patch.forEach(v -> gone.add(identity(v)));
                List<JsonNode> kept = new ArrayList<>();
                original.forEach(v -> {
                    if (!gone.contains(identity(v))) {
                        kept.add(v);
                    }
                });
                return kept;
            }
            merged = new ArrayList<>();
            Set<Object> seen = new HashSet<>();
            for (JsonNode v : concat(original, patch)) {
                if (seen.add(identity(v))) {
                    merged.add(v);
                }
            }
        } else {
            if (mergeKey.isEmpty()) {
                throw new PatchException("cannot merge lists without merge key for " + String.join(".", path));
            }
            // Directive elements first: deletions shrink the original, a replace element swaps the whole list.
            List<JsonNode> remaining = new ArrayList<>(original);
            List<JsonNode> plain = new ArrayList<>();
            boolean replace = false;
            for (JsonNode v : patch) {
                JsonNode directive = v.get(DIRECTIVE);
                if (directive == null) {
                    plain.add(v);
                } else if (isText(directive, DELETE)) {
                    JsonNode keyValue = v.get(mergeKey);
                    if (keyValue == null) {
                        throw noMergeKey(v, mergeKey);
                    }
                    remaining.removeIf(o -> sameKey(o, mergeKey, keyValue));
                } else if (isText(directive, REPLACE)) {
                    replace = true;
                } else if (isText(directive, MERGE)) {
                    throw new PatchException("merging lists cannot yet be specified in the patch");
                } else {
                    throw new PatchException("unknown patch type: " + text(directive) + " in map: " + v);
                }
            }
            if (replace) {
                List<JsonNode> replaced = new ArrayList<>();
                plain.forEach(v -> addIfKept(replaced, v));
                return replaced;
            }
            for (JsonNode v : plain) {
                JsonNode keyValue = v.get(mergeKey);
                if (keyValue == null) {
                    throw noMergeKey(v, mergeKey);
                }
                int at = indexOfKey(remaining, mergeKey, keyValue);
                if (at >= 0) {
                    remaining.set(at, mergeMap((ObjectNode) remaining.get(at), (ObjectNode) v, path));
                } else {
                    addIfKept(remaining, v);
                }
            }
            merged = remaining;
            patchItems = plain;
            serverOrder = original;
        }
        return enforceOrder(merged, patchItems, serverOrder, mergeKey, kind);
    }

    /**
     * {@code $setElementOrder/<field>}: merge the named list (if patched) and then order it by the directive,
     * server-only items interleaved by their original positions.
     */
    private void applySetElementOrder(ObjectNode original, ObjectNode patch, List<String> path) {
        for (String directiveKey : new ArrayList<>(patch.propertyNames())) {
            if (!directiveKey.startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            JsonNode order = patch.remove(directiveKey);
            if (!order.isArray()) {
                throw new PatchException("invalid patch format of setElementOrder list");
            }
            String field = extractKey(directiveKey, SET_ELEMENT_ORDER, "invalid patch format of setElementOrder list");
            JsonNode originalList = original.get(field);
            JsonNode patchList = patch.get(field);
            if (originalList != null && !originalList.isArray()) {
                throw new PatchException("invalid patch format of setElementOrder list: " + field
                        + " is not a list in the object");
            }
            if (patchList != null && !patchList.isArray()) {
                throw new PatchException("invalid patch format of setElementOrder list: " + field
                        + " is not a list in the patch");
            }
            List<String> fieldPath = append(path, field);
            String mergeKey = keys.mergeKey(fieldPath).orElse("");
            List<JsonNode> orderItems = elements(order);
            List<JsonNode> originalItems = originalList == null ? List.of() : elements(originalList);
            validateAgainstOrder(patchList == null ? List.of() : elements(patchList), orderItems, mergeKey);

            List<JsonNode> merged;
            if (originalList != null && patchList != null) {
                merged = elements(mergeListField((ArrayNode) originalList, (ArrayNode) patchList, fieldPath, false));
            } else if (patchList != null) {
                merged = elements(clean(patchList));
            } else if (originalList != null) {
                merged = originalItems;
            } else {
                continue;
            }
            patch.remove(field);
            List<JsonNode> patchElems = patchList == null ? List.of() : elements(patchList);
            if (merged.isEmpty() && originalItems.isEmpty() && patchElems.isEmpty()) {
                original.set(field, toArray(merged));
                continue;
            }
            Kind kind = elementKind(originalItems, patchElems.isEmpty() ? merged : patchElems);
            original.set(field, toArray(enforceOrder(merged, orderItems, originalItems, mergeKey, kind)));
        }
    }

    /** Every non-deleting patch item must appear in the {@code $setElementOrder} list, in the same order. */
    private static void validateAgainstOrder(List<JsonNode> patchItems, List<JsonNode> order, String mergeKey) {
        if (order.isEmpty() || patchItems.isEmpty()) {
            return;
        }
        List<JsonNode> relevant = new ArrayList<>();
        for (JsonNode p : patchItems) {
            if (!(p.isObject() && p.has(DIRECTIVE))) {
                relevant.add(p);
            }
        }
        int pi = 0;
        int oi = 0;
        while (pi < relevant.size() && oi < order.size()) {
            if (identityOf(relevant.get(pi), mergeKey).equals(identityOf(order.get(oi), mergeKey))) {
                pi++;
            }
            oi++;
        }
        if (pi < relevant.size()) {
            throw new PatchException("The order in patch list:\n" + toArray(patchItems)
                    + "\n doesn't match " + SET_ELEMENT_ORDER + " list:\n" + toArray(order) + "\n");
        }
    }

    /**
     * Orders a merged list: items named in {@code patchOrder} first sorted by it, server-only items sorted by
     * {@code serverOrder}; then server-only items are woven in before the first patch item that comes after
     * them on the server, keeping both relative orders.
     */
    private static List<JsonNode> enforceOrder(List<JsonNode> merged, List<JsonNode> patchOrder,
                                               List<JsonNode> serverOrder, String mergeKey, Kind kind) {
        String key = kind == Kind.OBJECT ? mergeKey : "";
        List<Object> patchIds = ids(patchOrder, key);
        List<Object> serverIds = ids(serverOrder, key);
        List<JsonNode> fromPatch = new ArrayList<>();
        List<JsonNode> serverOnly = new ArrayList<>();
        for (JsonNode v : merged) {
            (patchIds.contains(identityOf(v, key)) ? fromPatch : serverOnly).add(v);
        }
        fromPatch.sort(Comparator.comparingInt(v -> rank(patchIds, identityOf(v, key))));
        serverOnly.sort(Comparator.comparingInt(v -> rank(serverIds, identityOf(v, key))));

        List<JsonNode> out = new ArrayList<>(merged.size());
        int i = 0;
        int j = 0;
        while (i < serverOnly.size() || j < fromPatch.size()) {
            if (j >= fromPatch.size()) {
                out.add(serverOnly.get(i++));
            } else if (i >= serverOnly.size()) {
                out.add(fromPatch.get(j++));
            } else {
                int li = serverIds.indexOf(identityOf(serverOnly.get(i), key));
                int ri = serverIds.indexOf(identityOf(fromPatch.get(j), key));
                if (li >= 0 && ri >= 0 && li < ri) {
                    out.add(serverOnly.get(i++));
                } else {
                    out.add(fromPatch.get(j++));
                }
            }
        }
        return out;
    }

    private static int rank(List<Object> order, Object id) {
        int at = order.indexOf(id);
        return at < 0 ? Integer.MAX_VALUE : at;
    }

    private static List<Object> ids(List<JsonNode> items, String mergeKey) {
        List<Object> ids = new ArrayList<>(items.size());
        items.forEach(v -> ids.add(identityOf(v, mergeKey)));
        return ids;
    }

    // --------------------------------------------------------------------------------------------- helpers

    private enum Kind { OBJECT, ARRAY, SCALAR, NULL }

    private static Kind kind(JsonNode n) {
        if (n.isObject()) {
            return Kind.OBJECT;
        }
        if (n.isArray()) {
            return Kind.ARRAY;
        }
        return n.isNull() ? Kind.NULL : Kind.SCALAR;
    }

    /** The common element kind of the lists; lists of lists and mixed objects/scalars are rejected. */
    private static Kind elementKind(List<JsonNode> a, List<JsonNode> b) {
        Kind found = null;
        for (JsonNode v : concat(a, b)) {
            Kind k = kind(v);
            if (k == Kind.ARRAY) {
                throw new PatchException("lists of lists are not supported");
            }
            if (found != null && found != k && (found == Kind.OBJECT || k == Kind.OBJECT)) {
                throw new PatchException("list element types are not identical: " + toArray(a) + " " + toArray(b));
            }
            found = found == null ? k : found;
        }
        return found == null ? Kind.SCALAR : found;
    }

    /** Identity of a list element: its merge-key value for objects, its own value for scalars. */
    private static Object identityOf(JsonNode v, String mergeKey) {
        if (!mergeKey.isEmpty() && v.isObject()) {
            JsonNode k = v.get(mergeKey);
            return k == null ? List.of("<no merge key>", v) : identity(k);
        }
        return identity(v);
    }

    /** Value identity in which 80 and 80.0 are the same (Go decodes all JSON numbers to float64). */
    private static Object identity(JsonNode v) {
        if (v.isNumber()) {
            BigDecimal d = v.decimalValue();
            return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        }
        return v;
    }

    private static boolean sameKey(JsonNode element, String mergeKey, JsonNode keyValue) {
        JsonNode k = element.isObject() ? element.get(mergeKey) : null;
        return k != null && identity(k).equals(identity(keyValue));
    }

    private static int indexOfKey(List<JsonNode> list, String mergeKey, JsonNode keyValue) {
        for (int i = 0; i < list.size(); i++) {
            if (sameKey(list.get(i), mergeKey, keyValue)) {
                return i;
            }
        }
        return -1;
    }

    private static PatchException noMergeKey(JsonNode element, String mergeKey) {
        return new PatchException("map: " + element + " does not contain declared merge key: " + mergeKey);
    }

    private static String extractKey(String key, String prefix, String error) {
        int slash = key.indexOf('/');
        if (slash < 0 || !key.substring(0, slash).equals(prefix)) {
            throw new PatchException(error);
        }
        return key.substring(slash + 1);
    }

    /**
     * A patch value entering the result unmerged: nulls dropped, maps carrying {@code $patch: delete} dropped,
     * and directive keys removed, so no directive is ever stored. Returns {@code null} if the value itself is
     * dropped. (apimachinery drops a new map carrying any {@code $patch}; keeping a replace/merge map's content is
     * what the client evidently meant.)
     */
    private static JsonNode clean(JsonNode v) {
        if (v.isObject()) {
            return cleanMap(v, false);
        }
        if (v.isArray()) {
            ArrayNode out = NODES.arrayNode();
            for (JsonNode item : v) {
                // In a list, any element carrying $patch is a directive about the list, not an element.
                JsonNode c = item.isObject() ? cleanMap(item, true) : clean(item);
                if (c != null) {
                    out.add(c);
                }
            }
            return out;
        }
        return v;
    }

    private static JsonNode cleanMap(JsonNode v, boolean listElement) {
        JsonNode directive = v.get(DIRECTIVE);
        if (directive != null && (listElement || !(isText(directive, REPLACE) || isText(directive, MERGE)))) {
            return null;
        }
        ObjectNode out = NODES.objectNode();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            String k = e.getKey();
            if (e.getValue().isNull() || isDirectiveKey(k)) {
                continue;
            }
            JsonNode c = clean(e.getValue());
            if (c != null) {
                out.set(k, c);
            }
        }
        return out;
    }

    private static boolean isDirectiveKey(String k) {
        return k.equals(DIRECTIVE) || k.equals(RETAIN_KEYS) || k.startsWith(SET_ELEMENT_ORDER + "/")
                || k.startsWith(DELETE_FROM_PRIMITIVE_LIST + "/");
    }

    private static void addIfKept(List<JsonNode> list, JsonNode v) {
        JsonNode c = clean(v);
        if (c != null) {
            list.add(c);
        }
    }

    private static boolean isText(JsonNode n, String s) {
        return n.isString() && n.stringValue().equals(s);
    }

    private static String text(JsonNode n) {
        return n.isString() ? n.stringValue() : n.toString();
    }

    private static List<JsonNode> elements(JsonNode array) {
        List<JsonNode> out = new ArrayList<>(array.size());
        for (Iterator<JsonNode> it = array.iterator(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    private static ArrayNode toArray(List<JsonNode> items) {
        ArrayNode a = NODES.arrayNode();
        items.forEach(a::add);
        return a;
    }

    private static List<JsonNode> concat(List<JsonNode> a, List<JsonNode> b) {
        List<JsonNode> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return all;
    }

    private static List<String> append(List<String> path, String field) {
        List<String> p = new ArrayList<>(path.size() + 1);
        p.addAll(path);
        p.add(field);
        return List.copyOf(p);
    }
}
