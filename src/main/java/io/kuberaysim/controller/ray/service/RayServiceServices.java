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

    /** The head Service pointing at {@code cluster}: headless, with the head container's ports. */
    public static ObjectNode headService(StoredObject rayService, String cluster) {
        ObjectNode svc = base(rayService, RayLabels.headServiceName(rayService.name()));
        ObjectNode labels = Json.child((ObjectNode) svc.get("metadata"), "labels");
        labels.put(RayLabels.IDENTIFIER, rayService.name() + "-head");
        ObjectNode spec = svc.putObject("spec");
        ObjectNode selector = spec.putObject("selector");
        headSelector(cluster).forEach(selector::put);
        ArrayNode ports = spec.putArray("ports");
        headPorts(clusterConfig(rayService)).forEach((name, port) ->
                ports.addObject().put("name", name).put("port", port).put("appProtocol", "tcp"));
        spec.put("type", "ClusterIP");
        // KubeRay >= 1.2 makes the head Service headless unless told otherwise.
        spec.put("clusterIP", "None");
        spec.put("publishNotReadyAddresses", true);
        return svc;
    }

    /**
     * The serve Service pointing at {@code cluster}: the user's {@code serveService} as a base, the selector forced,
     * and the head's {@code serve}/{@code serve-*} ports when the user named none. Null when there is no serve port.
     */
    public static ObjectNode serveService(StoredObject rayService, String cluster) {
        JsonNode user = Json.at(rayService.object(), "spec", "serveService");
        ObjectNode svc = base(rayService, serveServiceName(rayService));
        ObjectNode meta = (ObjectNode) svc.get("metadata");
        if (user != null && user.isObject()) {
            JsonNode userLabels = Json.at(user, "metadata", "labels");
            if (userLabels != null && userLabels.isObject()) {
                ObjectNode labels = Json.child(meta, "labels");
                userLabels.properties().forEach(e -> {
                    if (!labels.has(e.getKey())) {
                        labels.set(e.getKey(), e.getValue());
                    }
                });
            }
            JsonNode ann = Json.at(user, "metadata", "annotations");
            if (ann != null && ann.isObject()) {
                meta.set("annotations", ann.deepCopy());
            }
        }
        Json.child(meta, "labels").put(RayLabels.SERVE, rayService.name() + "-serve");
        JsonNode userSpec = Json.at(user, "spec");
        ObjectNode spec = userSpec != null && userSpec.isObject() ? ((ObjectNode) userSpec).deepCopy() : Json.object();
        svc.set("spec", spec);
        spec.remove("clusterIP");
        spec.remove("clusterIPs");
        ObjectNode selector = spec.putObject("selector");
        serveSelector(cluster).forEach(selector::put);
        if (!(spec.get("ports") instanceof ArrayNode userPorts) || userPorts.isEmpty()) {
            ArrayNode ports = spec.putArray("ports");
            headPorts(clusterConfig(rayService)).forEach((name, port) -> {
                if (ClusterServices.isServePort(name)) {
                    ports.addObject().put("name", name).put("port", port).put("appProtocol", "tcp");
                }
            });
            if (ports.isEmpty()) {
                return null;
            }
        }
        if (!spec.has("type")) {
            spec.put("type", "ClusterIP");
        }
        return svc;
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
