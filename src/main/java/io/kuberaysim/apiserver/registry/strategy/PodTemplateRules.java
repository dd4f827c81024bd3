package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Defaults and validation of a pod spec, shared by Pods and the templates of Jobs. */
final class PodTemplateRules {
    private PodTemplateRules() {
    }

    static void applyDefaults(ObjectNode spec) {
        putIfAbsent(spec, "restartPolicy", "Always");
        if (!spec.has("terminationGracePeriodSeconds")) {
            spec.put("terminationGracePeriodSeconds", 30);
        }
        putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
        putIfAbsent(spec, "schedulerName", "default-scheduler");
        if (!spec.has("securityContext")) {
            spec.putObject("securityContext");
        }
        for (String list : List.of("containers", "initContainers")) {
            JsonNode cs = spec.get(list);
            if (cs != null && cs.isArray()) {
                for (JsonNode c : cs) {
                    if (c instanceof ObjectNode co) {
                        String image = Json.text(co, "image");
                        boolean latest = image != null && (!image.contains(":") || image.endsWith(":latest"));
                        putIfAbsent(co, "imagePullPolicy", latest ? "Always" : "IfNotPresent");
                        putIfAbsent(co, "terminationMessagePath", "/dev/termination-log");
                        putIfAbsent(co, "terminationMessagePolicy", "File");
                        if (!co.has("resources")) {
                            co.putObject("resources");
                        }
                    }
                }
            }
        }
    }

    private static void putIfAbsent(ObjectNode o, String field, String value) {
        if (!o.has(field) || o.get(field).isNull()) {
            o.put(field, value);
        }
    }

    /** kube-apiserver's pod warnings that concern us; {@code path} is the pod spec's. */
    static List<String> warnings(JsonNode spec, String path) {
        JsonNode grace = spec == null ? null : spec.get("terminationGracePeriodSeconds");
        if (grace != null && grace.isIntegralNumber() && grace.asLong() < 0) {
            return List.of(path + ".terminationGracePeriodSeconds: must be >= 0; negative values are invalid and "
                    + "will be treated as 1");
        }
        return List.of();
    }

    static List<StatusCause> validate(JsonNode spec, String path) {
        List<StatusCause> causes = new ArrayList<>();
        if (spec == null || !spec.isObject()) {
            causes.add(StatusCause.required(path));
            return causes;
        }
        JsonNode cs = spec.get("containers");
        if (cs == null || !cs.isArray() || cs.isEmpty()) {
            causes.add(StatusCause.required(path + ".containers"));
            return causes;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < cs.size(); i++) {
            JsonNode c = cs.get(i);
            String p = path + ".containers[" + i + "]";
            String name = Json.text(c, "name");
            if (name == null || name.isEmpty()) {
                causes.add(StatusCause.required(p + ".name"));
            } else {
                for (String msg : NameValidation.isDns1123Label(name)) {
                    causes.add(StatusCause.invalid(p + ".name", name, msg));
                }
                if (!names.add(name)) {
                    causes.add(new StatusCause("FieldValueDuplicate", "Duplicate value: \"" + name + "\"",
                            p + ".name"));
                }
            }
            String image = Json.text(c, "image");
            if (image == null || image.isBlank()) {
                causes.add(StatusCause.required(p + ".image"));
            }
            causes.addAll(ResourceListRules.container(c, p));
        }
        JsonNode inits = spec.get("initContainers");
        if (inits != null && inits.isArray()) {
            for (int i = 0; i < inits.size(); i++) {
                causes.addAll(ResourceListRules.container(inits.get(i), path + ".initContainers[" + i + "]"));
            }
        }
        String rp = Json.text(spec, "restartPolicy");
        if (rp != null && !List.of("Always", "OnFailure", "Never").contains(rp)) {
            causes.add(new StatusCause("FieldValueNotSupported", "Unsupported value: \"" + rp
                    + "\": supported values: \"Always\", \"OnFailure\", \"Never\"", path + ".restartPolicy"));
        }
        return causes;
    }
}
