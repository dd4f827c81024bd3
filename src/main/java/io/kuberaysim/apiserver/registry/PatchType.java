package io.kuberaysim.apiserver.registry;

import java.util.Arrays;
import java.util.Optional;

/** The patch formats kube-apiserver understands, by request Content-Type. */
public enum PatchType {
    JSON("application/json-patch+json"),
    MERGE("application/merge-patch+json"),
    STRATEGIC("application/strategic-merge-patch+json"),
    APPLY("application/apply-patch+yaml");

    private final String contentType;

    PatchType(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }

    public static Optional<PatchType> fromContentType(String contentType) {
        if (contentType == null) {
            return Optional.empty();
        }
        String base = contentType.split(";", 2)[0].trim().toLowerCase();
        return Arrays.stream(values()).filter(p -> p.contentType.equals(base)).findFirst();
    }
}
