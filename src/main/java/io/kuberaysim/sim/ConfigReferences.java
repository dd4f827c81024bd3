package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * What a Pod reads from ConfigMaps and Secrets, checked as the kubelet checks it: volumes when it mounts them
 * (a missing object or key is a {@code FailedMount} and the Pod waits in ContainerCreating), environment variables
 * when it creates each container (a {@code CreateContainerConfigError}). {@code optional: true} references may be
 * missing. The messages are the kubelet's.
 */
final class ConfigReferences {
    private final SharedInformer configMaps;
    private final SharedInformer secrets;

    ConfigReferences(SharedInformer configMaps, SharedInformer secrets) {
        this.configMaps = configMaps;
        this.secrets = secrets;
    }

    /** One {@code MountVolume.SetUp failed ...} message per volume that cannot be mounted now, in spec order. */
    List<String> mountErrors(StoredObject pod) {
        List<String> out = new ArrayList<>();
        for (JsonNode volume : pod.object().path("spec").path("volumes")) {
            List<String> errors = new ArrayList<>();
            volumeSource(pod, volume.get("secret"), "secretName", Kind.SECRET, errors);
            volumeSource(pod, volume.get("configMap"), "name", Kind.CONFIG_MAP, errors);
            for (JsonNode source : volume.path("projected").path("sources")) {
                volumeSource(pod, source.get("secret"), "name", Kind.SECRET, errors);
                volumeSource(pod, source.get("configMap"), "name", Kind.CONFIG_MAP, errors);
            }
            if (!errors.isEmpty()) {
                // a projected volume aggregates its sources' errors as Go's utilerrors.Aggregate prints them
                String error = errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
                out.add("MountVolume.SetUp failed for volume \"" + Json.text(volume, "name") + "\" : " + error);
            }
        }
        return out;
    }

    private void volumeSource(StoredObject pod, JsonNode source, String nameField, Kind kind, List<String> errors) {
        if (source == null || !source.isObject()) {
            return;
        }
        boolean optional = source.path("optional").asBoolean(false);
        String name = Json.text(source, nameField);
        StoredObject object = name == null ? null : informer(kind).get(pod.namespace(), name);
        if (object == null) {
            if (!optional) {
                errors.add(kind.resource + " \"" + (name == null ? "" : name) + "\" not found");
            }
            return;
        }
        for (JsonNode item : source.path("items")) {
            String key = Json.text(item, "key");
            if (key != null && !kind.hasFile(object.object(), key) && !optional) {
                errors.add(kind.missingVolumeKey + key);
                return;
            }
        }
    }

    /**
     * Why the kubelet cannot build {@code container}'s configuration (envFrom first, then env, as it resolves
     * them), or null when every reference resolves.
     */
    String containerError(StoredObject pod, JsonNode container) {
        for (JsonNode from : container.path("envFrom")) {
            for (Kind kind : Kind.values()) {
                JsonNode ref = from.get(kind.envFromField);
                if (ref != null && ref.isObject()) {
                    String name = Json.text(ref, "name");
                    if (informer(kind).get(pod.namespace(), name == null ? "" : name) == null
                            && !ref.path("optional").asBoolean(false)) {
                        return kind.resource + " \"" + (name == null ? "" : name) + "\" not found";
                    }
                }
            }
        }
        for (JsonNode env : container.path("env")) {
            JsonNode valueFrom = env.path("valueFrom");
            for (Kind kind : Kind.values()) {
                JsonNode ref = valueFrom.get(kind.keyRefField);
                if (ref == null || !ref.isObject()) {
                    continue;
                }
                boolean optional = ref.path("optional").asBoolean(false);
                String name = Json.text(ref, "name");
                String key = Json.text(ref, "key");
                StoredObject object = informer(kind).get(pod.namespace(), name == null ? "" : name);
                if (object == null) {
                    if (!optional) {
                        return kind.resource + " \"" + (name == null ? "" : name) + "\" not found";
                    }
                } else if (!object.object().path("data").has(key == null ? "" : key) && !optional) {
                    // an environment variable reads data only, never a ConfigMap's binaryData
                    return "couldn't find key " + key + " in " + kind.kind + " " + pod.namespace() + "/" + name;
                }
            }
        }
        return null;
    }

    private SharedInformer informer(Kind kind) {
        return kind == Kind.SECRET ? secrets : configMaps;
    }

    /** The two kinds a Pod reads, with the words the kubelet uses for each. */
    private enum Kind {
        // the kubelet's object managers report a missing object by the singular resource name
        CONFIG_MAP("configmap", "ConfigMap", "configMapRef", "configMapKeyRef",
                "configmap references non-existent config key: "),
        SECRET("secret", "Secret", "secretRef", "secretKeyRef", "references non-existent secret key: ");

        final String resource;
        final String kind;
        final String envFromField;
        final String keyRefField;
        final String missingVolumeKey;

        Kind(String resource, String kind, String envFromField, String keyRefField, String missingVolumeKey) {
            this.resource = resource;
            this.kind = kind;
            this.envFromField = envFromField;
            this.keyRefField = keyRefField;
            this.missingVolumeKey = missingVolumeKey;
        }

        /** Whether a volume of this object can project {@code key}. */
        boolean hasFile(JsonNode object, String key) {
            return object.path("data").has(key) || (this == CONFIG_MAP && object.path("binaryData").has(key));
        }
    }
}
