package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import tools.jackson.databind.node.ObjectNode;

/** The start of every object a controller creates: apiVersion, kind, and metadata with name and namespace. */
public final class ObjectSkeleton {
    private ObjectSkeleton() {
    }

    /** {@code {apiVersion, kind, metadata: {name, namespace}}}, fields in the order kubectl shows them. */
    public static ObjectNode of(String apiVersion, String kind, String namespace, String name) {
        ObjectNode object = Json.object();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        ObjectNode meta = object.putObject("metadata");
        meta.put("name", name);
        meta.put("namespace", namespace);
        return object;
    }

    /** The metadata of an object made by {@link #of}. */
    public static ObjectNode metadata(ObjectNode object) {
        return (ObjectNode) object.get("metadata");
    }
}
