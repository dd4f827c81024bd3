package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.Service;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.SelectableFields;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * core/v1 Service: a cluster IP from 10.96.0.0/12 (or none when headless), port defaults, and a cluster IP
 * that never changes once set. Allocation is sequential, so a run on the virtual clock is reproducible.
 */
public final class ServiceStrategy implements ResourceStrategy {
    private static final int SERVICE_CIDR_BASE = (10 << 24) | (96 << 16);
    private final AtomicInteger next = new AtomicInteger(1);

    @Override
    public ResourceType type() {
        return ResourceTypes.SERVICES;
    }

    @Override
    public Class<?> model() {
        return Service.class;
    }

    @Override
    public List<String> validateName(String name) {
        return io.kuberaysim.apiserver.validation.NameValidation.isDns1035Label(name);
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    /** kube-apiserver's store for this kind sets ReturnDeletedObject: a DELETE answers the object. */
    @Override
    public boolean returnDeletedObject() {
        return true;
    }

    @Override
    public void prepareForCreate(ObjectNode object, Instant now) {
        ObjectNode spec = Json.child(object, "spec");
        if (!spec.has("type")) {
            spec.put("type", "ClusterIP");
        }
        String ip = Json.text(spec, "clusterIP");
        if (ip == null || ip.isEmpty()) {
            ip = allocate();
            spec.put("clusterIP", ip);
        }
        if (!spec.has("clusterIPs")) {
            spec.putArray("clusterIPs").add(ip);
        }
        if (!"None".equals(ip)) {
            spec.putArray("ipFamilies").add("IPv4");
            spec.put("ipFamilyPolicy", "SingleStack");
        }
        if (!spec.has("sessionAffinity")) {
            spec.put("sessionAffinity", "None");
        }
        if (!spec.has("internalTrafficPolicy")) {
            spec.put("internalTrafficPolicy", "Cluster");
        }
        JsonNode ports = spec.get("ports");
        if (ports instanceof ArrayNode arr) {
            for (JsonNode p : arr) {
                if (p instanceof ObjectNode po) {
                    if (!po.has("protocol")) {
                        po.put("protocol", "TCP");
                    }
                    if (!po.has("targetPort") && po.has("port")) {
                        po.set("targetPort", po.get("port"));
                    }
                }
            }
        }
        Json.child(Json.child(object, "status"), "loadBalancer");
    }

    private String allocate() {
        int n = SERVICE_CIDR_BASE + next.getAndIncrement();
        return ((n >>> 24) & 255) + "." + ((n >>> 16) & 255) + "." + ((n >>> 8) & 255) + "." + (n & 255);
    }

    @Override
    public void prepareForUpdate(ObjectNode object, JsonNode old) {
        ObjectNode spec = Json.child(object, "spec");
        for (String f : List.of("clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy")) {
            if ((!spec.has(f) || "".equals(Json.text(spec, f))) && Json.at(old, "spec", f) != null) {
                spec.set(f, old.get("spec").get(f));
            }
        }
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode spec = object.get("spec");
        JsonNode ports = spec == null ? null : spec.get("ports");
        boolean headless = "None".equals(Json.text(spec, "clusterIP"));
        if ((ports == null || !ports.isArray() || ports.isEmpty()) && !headless) {
            causes.add(StatusCause.required("spec.ports"));
        }
        if (ports != null && ports.isArray()) {
            for (int i = 0; i < ports.size(); i++) {
                JsonNode p = ports.get(i).get("port");
                if (p == null || !p.canConvertToInt() || p.asInt() < 1 || p.asInt() > 65535) {
                    causes.add(p == null ? StatusCause.required("spec.ports[" + i + "].port")
                            : StatusCause.invalid("spec.ports[" + i + "].port", p.asString(),
                            "must be between 1 and 65535, inclusive"));
                }
            }
        }
        String type = Json.text(spec, "type");
        if (type != null && !List.of("ClusterIP", "NodePort", "LoadBalancer", "ExternalName").contains(type)) {
            causes.add(new StatusCause("FieldValueNotSupported", "Unsupported value: \"" + type
                    + "\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"",
                    "spec.type"));
        }
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(ObjectNode object, JsonNode old) {
        List<StatusCause> causes = new ArrayList<>(validate(object));
        String before = Json.text(old, "spec", "clusterIP");
        String after = Json.text(object, "spec", "clusterIP");
        if (before != null && after != null && !before.equals(after)) {
            causes.add(StatusCause.invalid("spec.clusterIPs[0]", after, "may not change once set"));
        }
        return causes;
    }

    @Override
    public Map<String, Function<JsonNode, String>> selectableFields() {
        return SelectableFields.with(SelectableFields.nameAndNamespace(), Map.of(
                "spec.clusterIP", SelectableFields.text("spec", "clusterIP"),
                "spec.type", SelectableFields.text("spec", "type")));
    }
}
