package io.kuberaysim.controller.ray.service;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayService;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.cluster.ClusterServices;
import io.kuberaysim.controller.runtime.ObjectSkeleton;
import io.kuberaysim.controller.runtime.OwnerReferences;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The RayService's own Services (KubeRay {@code BuildHeadServiceForRayService} and
 * {@code BuildServeServiceForRayService}): {@code <rayservice>-head-svc} selecting the head Pod of the serving
 * cluster, and {@code <rayservice>-serve-svc} selecting its Pods labelled {@code ray.io/serve=true}. Both are
 * owned by the RayService, so they outlive every single cluster and traffic moves by changing their selectors.
 */
public final class RayServiceServices {

    /** Cluster-name key the services are switched by. */
    public static final String SELECTOR_CLUSTER = RayLabels.CLUSTER;

    private RayServiceServices() {
    }

    /** Selector of a cluster's head Pod: the same as the cluster's own head Service. */
    public static Map<String, String> headSelector(String cluster) {
        return ClusterServices.headSelector(cluster);
    }

    /** Selector of a cluster's serving Pods. */
    public static Map<String, String> serveSelector(String cluster) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(RayLabels.CLUSTER, cluster);
        m.put(RayLabels.SERVE, "true");
        return m;
    }

    /** Name of the serve Service: {@code serveService.metadata.name}, else {@code <rayservice>-serve-svc}. */
    public static String serveServiceName(StoredObject rayService) {
        String custom = Json.text(rayService.object(), "spec", "serveService", "metadata", "name");
        return custom == null || custom.isEmpty() ? RayLabels.serveServiceName(rayService.name()) : custom;
    }

    /**
     * KubeRay's {@code BuildHeadServiceForRayService}: the serving cluster's head Service as
     * {@code BuildServiceForHeadPod} builds it (selector on its head Pod, the head container's ports with
     * {@code appProtocol: tcp} sorted by name, type {@code headGroupSpec.serviceType}, headless when that is
     * ClusterIP or unset), named {@code <rayservice>-head-svc} and labelled for the RayService, {@code ray.io/node-type:
     * head} included.
     */
    public static ObjectNode headService(StoredObject rayService, String cluster) {
        ObjectNode svc = base(rayService, RayLabels.headServiceName(rayService.name()));
        ObjectNode labels = Json.child(ObjectSkeleton.metadata(svc), "labels");
        labels.put(RayLabels.NODE_TYPE, RayLabels.NODE_TYPE_HEAD);
        labels.put(RayLabels.IDENTIFIER, rayService.name() + "-" + RayLabels.NODE_TYPE_HEAD);
        ObjectNode spec = svc.putObject("spec");
        ObjectNode selector = spec.putObject("selector");
        headSelector(cluster).forEach(selector::put);
        ArrayNode ports = spec.putArray("ports");
        headPorts(clusterConfig(rayService)).forEach((name, port) ->
                ports.addObject().put("name", name).put("port", port).put("appProtocol", "tcp"));
        String type = serviceType(rayService);
        spec.put("type", type == null ? "ClusterIP" : type);
        if (type == null || type.equals("ClusterIP")) {
            spec.put("clusterIP", "None");
            spec.put("publishNotReadyAddresses", true);
        }
        return svc;
    }

    /**
     * KubeRay's {@code BuildServeService} for a RayService: {@code <rayservice>-serve-svc} labelled
     * {@code ray.io/serve: <rayservice>-serve}, selecting the serving cluster's Pods labelled {@code ray.io/serve:
     * "true"}, with the head container's {@code serve}/{@code serve-*} ports (no appProtocol) and type
     * {@code headGroupSpec.serviceType}. A user's {@code serveService} is the base: its selector replaced, KubeRay's
     * labels over the user's, a port the user defines under the same name used as the user wrote it, the user's
     * own ports kept when the head has no serve port. Null when there is no serve port at all (KubeRay's error).
     */
    public static ObjectNode serveService(StoredObject rayService, String cluster) {
        JsonNode user = Json.at(rayService.object(), "spec", "serveService");
        boolean custom = user != null && user.isObject();
        ArrayNode ports = Json.MAPPER.createArrayNode();
        headPorts(clusterConfig(rayService)).forEach((name, port) -> {
            if (ClusterServices.isServePort(name)) {
                ports.addObject().put("name", name).put("port", port);
            }
        });
        if (ports.isEmpty() && !custom) {
            return null;
        }
        ObjectNode svc = base(rayService, serveServiceName(rayService));
        ObjectNode meta = ObjectSkeleton.metadata(svc);
        ObjectNode labels = Json.child(meta, "labels");
        labels.put(RayLabels.SERVE, rayService.name() + "-serve");
        ObjectNode spec = Json.object();
        if (custom) {
            JsonNode userLabels = Json.at(user, "metadata", "labels");
            if (userLabels != null && userLabels.isObject()) {
                userLabels.properties().forEach(e -> {
                    if (!labels.has(e.getKey())) {
                        labels.set(e.getKey(), e.getValue());
                    }
                });
            }
            JsonNode ann = Json.at(user, "metadata", "annotations");
            if (ann != null && ann.isObject() && !ann.isEmpty()) {
                meta.set("annotations", ann.deepCopy());
            }
            JsonNode userSpec = Json.at(user, "spec");
            if (userSpec != null && userSpec.isObject()) {
                spec = ((ObjectNode) userSpec).deepCopy();
            }
        }
        svc.set("spec", spec);
        ObjectNode selector = spec.putObject("selector");
        serveSelector(cluster).forEach(selector::put);
        if (!ports.isEmpty()) {
            spec.set("ports", mergeUserPorts(ports, spec.get("ports")));
        }
        String type = serviceType(rayService);
        if (!spec.hasNonNull("type") || Json.text(spec, "type").isEmpty()) {
            spec.put("type", type == null ? "ClusterIP" : type);
        }
        return svc;
    }

    /** The detected serve ports, each replaced by the user's port of the same name when there is one. */
    private static ArrayNode mergeUserPorts(ArrayNode detected, JsonNode userPorts) {
        ArrayNode merged = Json.MAPPER.createArrayNode();
        for (JsonNode port : detected) {
            JsonNode mine = null;
            if (userPorts != null && userPorts.isArray()) {
                for (JsonNode u : userPorts) {
                    if (port.path("name").asString("").equals(Json.text(u, "name"))) {
                        mine = u;
                    }
                }
            }
            merged.add(mine == null ? port : mine.deepCopy());
        }
        return merged;
    }

    /** {@code rayClusterConfig.headGroupSpec.serviceType}, or null when unset. */
    private static String serviceType(StoredObject rayService) {
        String type = Json.text(clusterConfig(rayService), "headGroupSpec", "serviceType");
        return type == null || type.isEmpty() ? null : type;
    }

    /** The cluster a Service's selector points at, or null. */
    public static String selectedCluster(StoredObject service) {
        return service == null ? null : Json.text(service.object(), "spec", "selector", SELECTOR_CLUSTER);
    }

    /** The head container's ports by name, as the cluster's own head Service exposes them. */
    public static Map<String, Integer> headPorts(JsonNode rayClusterConfig) {
        return ClusterServices.headPorts(Json.at(rayClusterConfig, "headGroupSpec", "template"));
    }

    private static JsonNode clusterConfig(StoredObject rayService) {
        return Json.at(rayService.object(), "spec", "rayClusterConfig");
    }

    private static ObjectNode base(StoredObject rayService, String name) {
        ObjectNode svc = ObjectSkeleton.of("v1", "Service", rayService.namespace(), name);
        ObjectNode meta = ObjectSkeleton.metadata(svc);
        ObjectNode labels = meta.putObject("labels");
        labels.put(RayLabels.ORIGINATED_FROM_CR_NAME, rayService.name());
        labels.put(RayLabels.ORIGINATED_FROM_CRD, ServiceKeys.CRD);
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(rayService));
        return svc;
    }
}
