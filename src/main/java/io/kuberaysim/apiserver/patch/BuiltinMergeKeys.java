package io.kuberaysim.apiserver.patch;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Table of the strategic-merge list metadata of the core/v1 and batch/v1 types served here. */
final class BuiltinMergeKeys implements MergeKeys {

    static final BuiltinMergeKeys INSTANCE = new BuiltinMergeKeys();

    private static final Map<List<String>, String> POD_AND_SERVICE = Map.ofEntries(
            // PodSpec
            Map.entry(List.of("spec", "containers"), "name"),
            Map.entry(List.of("spec", "initContainers"), "name"),
            Map.entry(List.of("spec", "ephemeralContainers"), "name"),
            Map.entry(List.of("spec", "volumes"), "name"),
            Map.entry(List.of("spec", "imagePullSecrets"), "name"),
            Map.entry(List.of("spec", "hostAliases"), "ip"),
            Map.entry(List.of("spec", "resourceClaims"), "name"),
            Map.entry(List.of("spec", "schedulingGates"), "name"),
            Map.entry(List.of("spec", "topologySpreadConstraints"), "topologyKey"),
            // PodStatus / JobStatus
            Map.entry(List.of("status", "conditions"), "type"),
            Map.entry(List.of("status", "podIPs"), "ip"),
            // ServiceSpec
            Map.entry(List.of("spec", "ports"), "port"));

    private static final Map<String, String> CONTAINER = Map.of(
            "env", "name",
            "ports", "containerPort",
            "volumeMounts", "mountPath",
            "volumeDevices", "devicePath");

    private BuiltinMergeKeys() {
    }

    @Override
    public Optional<String> mergeKey(List<String> fieldPath) {
        List<String> path = normalize(fieldPath);
        int n = path.size();
        if (n >= 2 && path.get(n - 2).equals("metadata") && path.get(n - 1).equals("ownerReferences")) {
            return Optional.of("uid");
        }
        if (n == 3 && path.get(0).equals("spec") && isContainerList(path.get(1))) {
            return Optional.ofNullable(CONTAINER.get(path.get(2)));
        }
        return Optional.ofNullable(POD_AND_SERVICE.get(path));
    }

    @Override
    public boolean mergesPrimitives(List<String> fieldPath) {
        int n = fieldPath.size();
        return n >= 2 && fieldPath.get(n - 2).equals("metadata") && fieldPath.get(n - 1).equals("finalizers");
    }

    private static boolean isContainerList(String field) {
        return field.equals("containers") || field.equals("initContainers") || field.equals("ephemeralContainers");
    }

    /** Strips pod-template wrappers so {@code spec.template.spec.containers} looks like {@code spec.containers}. */
    private static List<String> normalize(List<String> path) {
        List<String> p = path;
        while (p.size() > 2 && p.get(0).equals("spec")
                && (p.get(1).equals("template") || p.get(1).equals("jobTemplate"))) {
            p = p.subList(2, p.size());
        }
        return p;
    }
}
