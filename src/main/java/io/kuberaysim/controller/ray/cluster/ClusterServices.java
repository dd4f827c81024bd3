package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.ObjectSkeleton;
import io.kuberaysim.controller.runtime.OwnerReferences;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Services of a standalone RayCluster, as KubeRay's {@code common/service.go} builds them: the head Service
 * (headless unless a service type other than ClusterIP is asked for) and the optional serve Service.
 */
public final class ClusterServices {

    private ClusterServices() {
    }

    /** Labels and selector of the head Service ({@code BuildServiceForHeadPod}). */
    public static Map<String, String> headSelector(String cluster) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(RayLabels.CLUSTER, cluster);
        m.put(RayLabels.NODE_TYPE, RayLabels.NODE_TYPE_HEAD);
        m.put(RayLabels.IDENTIFIER, cluster + "-" + RayLabels.NODE_TYPE_HEAD);
        m.put(RayLabels.APP_NAME, RayLabels.APP_NAME_VALUE);
        m.put(RayLabels.CREATED_BY, RayLabels.CREATED_BY_VALUE);
        return m;
    }

    /** Name of the head Service: the user's {@code headService.metadata.name}, else {@code <cluster>-head-svc}. */
    public static String headServiceName(String cluster, RayClusterSpec spec) {
        String custom = Json.text(spec.headGroupSpec().headService(), "metadata", "name");
        return custom == null || custom.isEmpty() ? RayLabels.headServiceName(cluster) : custom;
    }

    /**
     * The head Service. Ports: every port of the head's Ray container (unnamed ones as {@code <port>-port}) plus
     * {@code metrics}, or KubeRay's five defaults when the container declares none; sorted by name.
     */
    public static ObjectNode headService(StoredObject cluster, RayClusterSpec spec) {
        ObjectNode user = spec.headGroupSpec().headService();
        ObjectNode svc = user == null ? Json.object() : user.deepCopy();
        svc.put("apiVersion", "v1");
        svc.put("kind", "Service");
        ObjectNode meta = Json.child(svc, "metadata");
        meta.remove("resourceVersion");
        meta.remove("uid");
        meta.put("name", headServiceName(cluster.name(), spec));
        meta.put("namespace", cluster.namespace());
        ObjectNode labels = Json.child(meta, "labels");
        headSelector(cluster.name()).forEach(labels::put);
        if (spec.headServiceAnnotations() != null && !spec.headServiceAnnotations().isEmpty()) {
            ObjectNode ann = Json.child(meta, "annotations");
            spec.headServiceAnnotations().forEach(ann::put);
        }
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(cluster));
        ObjectNode s = Json.child(svc, "spec");
        ObjectNode selector = s.putObject("selector");
        headSelector(cluster.name()).forEach(selector::put);
        ArrayNode ports = s.get("ports") instanceof ArrayNode existing ? existing : s.putArray("ports");
        Map<String, Integer> known = new LinkedHashMap<>();
        ports.forEach(p -> known.put(Json.text(p, "name"), p.path("port").asInt()));
        headPorts(spec).forEach((name, port) -> {
            if (!known.containsKey(name)) {
                ports.addObject().put("name", name).put("port", port).put("appProtocol", "tcp");
            }
        });
        String type = spec.headGroupSpec().serviceType();
        String userType = Json.text(s, "type");
        if ((userType == null || userType.isEmpty()) && type != null && !type.isEmpty()) {
            // setServiceTypeForUserProvidedService: serviceType only fills a type the user left out
            s.put("type", type);
        }
        String effective = Json.text(s, "type");
        if (user == null && (effective == null || effective.isEmpty() || "ClusterIP".equals(effective))) {
            // BuildServiceForHeadPod: only the generated Service is headless (unless
            // ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE); a user's headService keeps its spec
            s.put("clusterIP", "None");
            s.put("publishNotReadyAddresses", true);
        }
        return svc;
    }

    /** The head container's ports by name as KubeRay exposes them ({@code getServicePorts}). */
    public static Map<String, Integer> headPorts(RayClusterSpec spec) {
        return headPorts(spec.headGroupSpec().template());
    }

    /**
     * The ports by name of the Ray container of a head Pod {@code template} ({@code getServicePorts}): every declared
     * port (unnamed ones as {@code <port>-port}) plus {@code metrics}, or KubeRay's five defaults when it declares
     * none; sorted by name. Shared by the RayCluster's and the RayService's head and serve Services.
     */
    public static Map<String, Integer> headPorts(JsonNode template) {
        JsonNode c = Json.at(template, "spec", "containers");
        JsonNode declared = c == null || !c.isArray() || c.size() <= RayPodFactory.RAY_CONTAINER_INDEX
                ? null : c.get(RayPodFactory.RAY_CONTAINER_INDEX).get("ports");
        Map<String, Integer> ports = new TreeMap<>();
        if (declared == null || !declared.isArray() || declared.isEmpty()) {
            ports.put("client", RayLabels.CLIENT_PORT);
            ports.put("gcs-server", RayLabels.GCS_PORT);
            ports.put("dashboard", RayLabels.DASHBOARD_PORT);
            ports.put("metrics", RayLabels.METRICS_PORT);
            ports.put("serve", RayLabels.SERVE_PORT);
            return ports;
        }
        for (JsonNode p : declared) {
            int port = p.path("containerPort").asInt();
            String name = Json.text(p, "name");
            ports.put(name == null || name.isEmpty() ? port + "-port" : name, port);
        }
        ports.putIfAbsent("metrics", RayLabels.METRICS_PORT);
        return ports;
    }

    /** Whether a head port belongs on a serve Service: named {@code serve} or {@code serve-*}. */
    public static boolean isServePort(String name) {
        return name.equals("serve") || name.startsWith("serve-");
    }

    /** The serve Service, or null when the head exposes no port named {@code serve} or {@code serve-*}. */
    public static ObjectNode serveService(StoredObject cluster, RayClusterSpec spec) {
        ObjectNode svc = ObjectSkeleton.of("v1", "Service", cluster.namespace(), RayLabels.serveServiceName(cluster.name()));
        ObjectNode meta = ObjectSkeleton.metadata(svc);
        // BuildServeService for a RayCluster
        ObjectNode labels = meta.putObject("labels");
        labels.put(RayLabels.ORIGINATED_FROM_CR_NAME, cluster.name());
        labels.put(RayLabels.ORIGINATED_FROM_CRD, "RayCluster");
        labels.put(RayLabels.SERVE, cluster.name() + "-serve");
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(cluster));
        ObjectNode s = svc.putObject("spec");
        s.putObject("selector").put(RayLabels.CLUSTER, cluster.name());
        ArrayNode ports = s.putArray("ports");
        headPorts(spec).forEach((name, port) -> {
            if (isServePort(name)) {
                ports.addObject().put("name", name).put("port", port);
            }
        });
        if (ports.isEmpty()) {
            return null;
        }
        String type = spec.headGroupSpec().serviceType();
        s.put("type", type == null || type.isEmpty() ? "ClusterIP" : type);
        return svc;
    }
}
