package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The JSON encoding of a stored object: byte for byte what the mapper writes for the whole tree, with the encoding of
 * a stored top-level part other than {@code metadata} and {@code status} (a {@code spec}, a ConfigMap's {@code data})
 * kept for the next objects that have that very part. Stored trees are hash-consed, so the spec of every object created
 * or patched from one template is one instance, and encoding it again was most of the work of writing a create's or a
 * merge patch's answer (the status and metadata are the object's own and seldom shared).
 */
final class StoredJson {
    private static final int SLOTS = 64;
    /** Recently encoded parts by identity hash; a slot is overwritten by the next part that hashes to it. */
    private static final AtomicReferenceArray<Encoded> RECENT = new AtomicReferenceArray<>(SLOTS);

    /** Each thread's buffer for the answer being written, kept while it stays below this size. */
    private static final int KEPT_BUFFER_BYTES = 64 * 1024;
    private static final ThreadLocal<ByteArrayOutputStream> BUFFER =
            ThreadLocal.withInitial(() -> new ByteArrayOutputStream(4096));

    /** A part seen lately and, from its second sighting on, its encoding (null until then). */
    private record Encoded(JsonNode part, SerializableString json) {
    }

    private StoredJson() {
    }

    static byte[] encode(ObjectNode object) {
        if (!FrozenTrees.isStored(object)) {
            return Json.MAPPER.writeValueAsBytes(object);
        }
        SerializableString[] parts = new SerializableString[object.size()];
        int i = 0;
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (shareable(e.getKey(), e.getValue())) {
                parts[i] = encoded(e.getValue());
            }
            i++;
        }
        ByteArrayOutputStream out = BUFFER.get();
        out.reset();
        try (JsonGenerator g = Json.MAPPER.createGenerator(out)) {
            g.writeStartObject();
            i = 0;
            for (Map.Entry<String, JsonNode> e : object.properties()) {
                g.writeName(e.getKey());
                if (parts[i] != null) {
                    g.writeRawValue(parts[i]);
                } else {
                    // through the generator's own serialization context: the mapper's writeTree made a new one and
                    // flushed for each part
                    g.writeTree(e.getValue());
                }
                i++;
            }
            g.writeEndObject();
        }
        byte[] json = out.toByteArray();
        if (json.length > KEPT_BUFFER_BYTES) {
            BUFFER.remove(); // a large object's buffer is not kept by every thread that once encoded one
        }
        return json;
    }

    private static boolean shareable(String field, JsonNode part) {
        return part.isContainer() && !part.isEmpty() && FrozenTrees.isStored(part) && !field.equals("metadata")
                && !field.equals("status");
    }

    /**
     * The kept encoding of {@code part}, or null when it is written in place: the first time a part is seen only its
     * identity is noted, so parts of one object only (a ConfigMap's own data) cost no second encoding; the second
     * time it is encoded once and kept.
     */
    private static SerializableString encoded(JsonNode part) {
        int slot = System.identityHashCode(part) & (SLOTS - 1);
        Encoded known = RECENT.get(slot);
        if (known == null || known.part() != part) {
            RECENT.set(slot, new Encoded(part, null));
            return null;
        }
        if (known.json() != null) {
            return known.json();
        }
        SerializableString json = new SerializedString(
                new String(Json.MAPPER.writeValueAsBytes(part), StandardCharsets.UTF_8));
        RECENT.set(slot, new Encoded(part, json));
        return json;
    }
}
