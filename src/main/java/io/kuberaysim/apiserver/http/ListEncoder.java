package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.registry.ListResult;
import io.kuberaysim.apiserver.storage.StoredObject;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Writes a list response by concatenating the stored objects' cached encodings (no re-serialisation). */
public final class ListEncoder {
    private ListEncoder() {
    }

    public static byte[] encode(ResourceType type, ListResult result) {
        return encode(type, result.items(), result.resourceVersion(), result.continueToken(),
                result.remainingItemCount());
    }

    public static byte[] encode(ResourceType type, List<StoredObject> items, long rv, String continueToken,
                                Long remaining) {
        int size = 128;
        for (StoredObject o : items) {
            size += o.json().length + 1;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        StringBuilder head = new StringBuilder(96);
        head.append("{\"kind\":\"").append(type.listKind()).append("\",\"apiVersion\":\"").append(type.apiVersion())
                .append("\",\"metadata\":{\"resourceVersion\":\"").append(rv).append('"');
        if (continueToken != null) {
            head.append(",\"continue\":\"").append(continueToken).append('"');
        }
        if (remaining != null) {
            head.append(",\"remainingItemCount\":").append(remaining);
        }
        head.append("},\"items\":[");
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        boolean first = true;
        for (StoredObject o : items) {
            if (!first) {
                out.write(',');
            }
            first = false;
            out.writeBytes(o.json());
        }
        out.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
