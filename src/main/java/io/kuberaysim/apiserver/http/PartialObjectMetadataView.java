package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.registry.ListResult;
import io.kuberaysim.apiserver.storage.StoredObject;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;


/**
 * The metadata-only form of objects ({@code meta.k8s.io/v1} PartialObjectMetadata and PartialObjectMetadataList),
 * which client-go's metadata client, controller-runtime's metadata-only watches and kube's garbage collector ask
 * for with {@code Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1}.
 */
final class PartialObjectMetadataView {
    private static final String API_VERSION = "meta.k8s.io/v1";

    private PartialObjectMetadataView() {
    }

    /** Whether the client's most preferred representation this server serves is the metadata-only one. */
    static boolean wanted(HttpServletRequest req) {
        return ResponseRenderer.preferredView(req) == ResponseRenderer.View.PARTIAL_METADATA;
    }

    static ObjectNode object(StoredObject o) {
        ObjectNode partial = Json.object();
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", API_VERSION);
        partial.set("metadata", o.metadata());
        return partial;
    }

    static ObjectNode list(ListResult result) {
        ObjectNode list = Json.object();
        list.put("kind", "PartialObjectMetadataList");
        list.put("apiVersion", API_VERSION);
        ObjectNode meta = list.putObject("metadata");
        meta.put("resourceVersion", Long.toString(result.resourceVersion()));
        if (result.continueToken() != null) {
            meta.put("continue", result.continueToken());
        }
        if (result.remainingItemCount() != null) {
            meta.put("remainingItemCount", result.remainingItemCount());
        }
        ArrayNode items = list.putArray("items");
        for (StoredObject o : result.items()) {
            items.add(object(o));
        }
        return list;
    }
}
