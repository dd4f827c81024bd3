package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.patch.MergeKeys;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Server-side field management of one kind, as kube-apiserver's fieldmanager with structured-merge-diff: who owns
 * which field ({@code metadata.managedFields}), server-side apply (merge, conflicts, force, removal of the fields a
 * manager stopped applying) and the Update entries of ordinary writes.
 */
public final class FieldManager {
    private static final List<String> SERVER_METADATA = List.of("name", "namespace", "uid", "resourceVersion",
            "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields",
            "selfLink");
    private static final Comparator<ManagedFieldsEntry> ORDER = Comparator
            .comparing(ManagedFieldsEntry::operation)
            .thenComparing(e -> e.time() == null ? "" : e.time())
            .thenComparing(ManagedFieldsEntry::manager)
            .thenComparing(e -> e.apiVersion() == null ? "" : e.apiVersion())
            .thenComparing(e -> e.subresource() == null ? "" : e.subresource());

    private final ResourceType type;
    private final TypedFields fields;

    /** @param mergeKeys the kind's strategic-merge metadata (list keys of built-ins); null for custom resources */
    public FieldManager(ResourceType type, MergeKeys mergeKeys) {
        this.type = type;
        this.fields = new TypedFields(new ListTypes(mergeKeys));
    }

    /** The result of an apply: the merged object and the managedFields to store with it. */
    public record Applied(ObjectNode object, ArrayNode managedFields) {
    }

    /**
     * Server-side apply of {@code config} by {@code manager} onto {@code live} (null when the apply creates).
     *
     * @throws ApiException 409 Conflict with kube's message and one {@code FieldManagerConflict} cause per field
     *                      another manager owns with a different value, unless {@code force}
     */
    public Applied apply(ObjectNode live, ObjectNode config, String manager, boolean force, Instant now) {
        List<ManagedFieldsEntry> entries = live == null ? new ArrayList<>() : read(live);
        FieldSet applied = fields.fieldSet(managedPart(config, false));
        JsonNode livePart = live == null ? Json.object() : managedPart(live, false);
        JsonNode configPart = managedPart(config, false);

        Map<ManagedFieldsEntry, List<List<String>>> conflicts = new LinkedHashMap<>();
        for (ManagedFieldsEntry e : entries) {
            if (e.sameManager(manager, ManagedFieldsEntry.APPLY, null)) {
                continue;
            }
            for (List<String> path : applied.intersection(e.fields()).members()) {
                JsonNode was = TypedFields.valueAt(livePart, path);
                JsonNode wanted = TypedFields.valueAt(configPart, path);
                if (was != null && wanted != null && !was.equals(wanted) && !isItem(path)) {
                    conflicts.computeIfAbsent(e, k -> new ArrayList<>()).add(path);
                }
            }
        }
        if (!conflicts.isEmpty() && !force) {
            throw conflict(conflicts);
        }
        List<ManagedFieldsEntry> next = new ArrayList<>();
        FieldSet previous = new FieldSet();
        String previousTime = null;
        FieldSet others = new FieldSet();
        for (ManagedFieldsEntry e : entries) {
            if (e.sameManager(manager, ManagedFieldsEntry.APPLY, null)) {
                previous = e.fields();
                previousTime = e.time();
                continue;
            }
            FieldSet owned = e.fields();
            List<List<String>> lost = conflicts.get(e);
            if (lost != null) {
                FieldSet taken = new FieldSet();
                lost.forEach(p -> add(taken, p));
                owned = owned.difference(taken);
            }
            if (!owned.isEmpty()) {
                next.add(e.withFields(owned));
                others = others.union(owned);
            }
        }
        ObjectNode merged = (ObjectNode) fields.merge(live, withoutStatus(config), new ArrayList<>());
        fields.remove(merged, previous.difference(applied).difference(others));
        // an apply that changes nothing keeps its entry's time, so the write is a no-op as on kube-apiserver
        boolean unchanged = previousTime != null && conflicts.isEmpty()
                && previous.toFieldsV1().equals(applied.toFieldsV1()) && live.equals(merged);
        if (!applied.isEmpty()) { // an entry that owns nothing is dropped, as every other empty entry
            next.add(new ManagedFieldsEntry(manager, ManagedFieldsEntry.APPLY, type.apiVersion(),
                    unchanged ? previousTime : timestamp(now), null, applied));
        }
        return new Applied(merged, write(next));
    }

    /**
     * The managedFields after an ordinary write (create, update, patch) by {@code manager} (null: none known, the
     * ownership of what changed is only taken from the others): the manager's Update entry gains what it set or
     * changed, every other entry loses it, and removed fields leave every entry. Unchanged when nothing changed.
     */
    public ArrayNode update(ObjectNode before, ObjectNode after, String manager, boolean status, Instant now) {
        if (before == null) {
            return created(after, manager, status, now);
        }
        List<ManagedFieldsEntry> entries = read(before);
        TypedFields.Changes changes = fields.changes(before == null ? null : managedPart(before, status),
                managedPart(after, status));
        if (changes.isEmpty()) {
            return write(entries);
        }
        String subresource = status ? "status" : null;
        FieldSet touched = changes.changed().union(changes.removed());
        List<ManagedFieldsEntry> next = new ArrayList<>();
        FieldSet mine = new FieldSet();
        ManagedFieldsEntry mineEntry = null;
        for (ManagedFieldsEntry e : entries) {
            if (manager != null && e.sameManager(manager, ManagedFieldsEntry.UPDATE, subresource)) {
                mine = e.fields();
                mineEntry = e;
                continue;
            }
            if (!e.fields().intersects(touched)) {
                next.add(e); // loses nothing: written back as it was
                continue;
            }
            FieldSet owned = e.fields().difference(touched);
            if (!owned.isEmpty()) {
                next.add(e.withFields(owned));
            }
        }
        if (manager != null) {
            String time = timestamp(now);
            if (mineEntry != null && type.apiVersion().equals(mineEntry.apiVersion())
                    && changes.changed().difference(mine).isEmpty()
                    && !mine.intersects(changes.removed())) {
                next.add(mineEntry.at(time)); // owns what it owned: only the time moves
            } else {
                FieldSet owned = mine.union(changes.changed()).difference(changes.removed());
                if (!owned.isEmpty()) {
                    next.add(new ManagedFieldsEntry(manager, ManagedFieldsEntry.UPDATE, type.apiVersion(), time,
                            subresource, owned));
                }
            }
        }
        return write(next);
    }

    /**
     * A create's managedFields: the manager's Update entry owns every field the object has (none without a manager,
     * or when it has no fields). Its FieldsV1 is written against the last stored creates of this kind ({@link
     * #stored}), sharing the stored trees of the parts they have alike.
     */
    private ArrayNode created(ObjectNode after, String manager, boolean status, Instant now) {
        if (manager == null) {
            return write(List.of());
        }
        JsonNode fieldsV1 = fields.fieldsV1(managedPart(after, status), recentCreates);
        if (fieldsV1 == null) {
            return write(List.of());
        }
        return write(List.of(new ManagedFieldsEntry(manager, ManagedFieldsEntry.UPDATE, type.apiVersion(),
                timestamp(now), status ? "status" : null, FieldSet.fromFieldsV1(fieldsV1), fieldsV1, null)));
    }

    /** How many stored creates the next create's FieldsV1 is compared with: a kind's objects come in a few shapes. */
    private static final int RECENT_CREATES = 4;
    /** The FieldsV1 of the last stored creates, newest first (read by any writer thread; replaced whole). */
    private volatile JsonNode[] recentCreates = new JsonNode[RECENT_CREATES];

    /**
     * Tells the field manager how a create of its kind was stored: the FieldsV1 of its single Update entry (stored,
     * read-only) is what the next creates are written against.
     */
    public void stored(ObjectNode created) {
        JsonNode mf = Json.at(created, "metadata", "managedFields");
        if (mf == null || mf.size() != 1) {
            return;
        }
        JsonNode fieldsV1 = mf.get(0).get("fieldsV1");
        JsonNode[] recent = recentCreates;
        if (fieldsV1 == null || !fieldsV1.isObject() || fieldsV1 == recent[0]) {
            return;
        }
        JsonNode[] next = new JsonNode[RECENT_CREATES];
        next[0] = fieldsV1;
        int n = 1;
        for (JsonNode r : recent) {
            if (n < RECENT_CREATES && r != null && r != fieldsV1) {
                next[n++] = r;
            }
        }
        recentCreates = next;
    }

    /** The fields field management looks at: no type or server-set metadata, status only through /status. */
    private ObjectNode managedPart(JsonNode object, boolean status) {
        ObjectNode out = Json.object();
        object.properties().forEach(e -> {
            String f = e.getKey();
            if (f.equals("apiVersion") || f.equals("kind")) {
                return;
            }
            if (status ? !f.equals("status") : f.equals("status") && type.statusSubresource()) {
                return;
            }
            if (f.equals("metadata") && e.getValue().isObject()) {
                // read only: the user fields are shared with the object, not copied
                ObjectNode meta = Json.object();
                e.getValue().properties().forEach(m -> {
                    if (!SERVER_METADATA.contains(m.getKey())) {
                        meta.set(m.getKey(), m.getValue());
                    }
                });
                if (!meta.isEmpty()) {
                    out.set(f, meta);
                }
                return;
            }
            out.set(f, e.getValue());
        });
        return out;
    }

    private ObjectNode withoutStatus(ObjectNode config) {
        if (!type.statusSubresource() || !config.has("status")) {
            return config;
        }
        ObjectNode copy = config.deepCopy();
        copy.remove("status");
        return copy;
    }

    private static boolean isItem(List<String> path) {
        String last = path.get(path.size() - 1);
        return last.startsWith("k:") || last.startsWith("v:");
    }

    private static void add(FieldSet set, List<String> path) {
        FieldSet node = set;
        for (String e : path) {
            node = node.child(e);
        }
        node.markMember();
    }

    private static List<ManagedFieldsEntry> read(JsonNode object) {
        List<ManagedFieldsEntry> out = new ArrayList<>();
        JsonNode mf = object.path("metadata").path("managedFields");
        if (mf.isArray()) {
            mf.forEach(e -> out.add(ManagedFieldsEntry.read(e)));
        }
        return out;
    }

    private static ArrayNode write(List<ManagedFieldsEntry> entries) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        entries.stream().sorted(ORDER).forEach(e -> out.add(e.toJson()));
        return out;
    }

    private static String timestamp(Instant now) {
        return Timestamps.seconds(now);
    }

    /** kube-apiserver's apply conflict: 409, the conflicts in the message and as causes. */
    private static ApiException conflict(Map<ManagedFieldsEntry, List<List<String>>> conflicts) {
        List<StatusCause> causes = new ArrayList<>();
        TreeMap<String, List<String>> byManager = new TreeMap<>();
        int count = 0;
        for (Map.Entry<ManagedFieldsEntry, List<List<String>>> c : conflicts.entrySet()) {
            String who = c.getKey().describe();
            for (List<String> path : c.getValue()) {
                String field = FieldSet.pathString(path);
                causes.add(new StatusCause("FieldManagerConflict", "conflict with " + who, field));
                byManager.computeIfAbsent(who, k -> new ArrayList<>()).add(field);
                count++;
            }
        }
        String message;
        if (count == 1) {
            message = "Apply failed with 1 conflict: conflict with " + byManager.firstKey() + ": "
                    + byManager.firstEntry().getValue().get(0);
        } else {
            List<String> lines = new ArrayList<>();
            byManager.forEach((who, paths) -> {
                lines.add("conflicts with " + who + ":");
                paths.forEach(p -> lines.add("- " + p));
            });
            message = "Apply failed with " + count + " conflicts: " + String.join("\n", lines);
        }
        return new ApiException(409, "Conflict", message,
                new ApiException.StatusDetails(null, null, null, null, causes, null));
    }
}
