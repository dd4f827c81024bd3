package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.HeadGroupSpec;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.WorkerGroupSpec;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.OwnerReferences;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds head and worker Pods from the group templates the way KubeRay's {@code common/pod.go}
 * ({@code DefaultHeadPodTemplate}, {@code DefaultWorkerPodTemplate}, {@code BuildPod}) does: Ray labels and
 * annotations, the generated {@code ray start} command line with injected rayStartParams, Ray env vars, the
 * metrics port, the shared-memory volume, the worker {@code wait-gcs-ready} init container, the autoscaler
 * sidecar, and a controller ownerReference. Everything else in the user's template is copied verbatim,
 * unknown fields included.
 */
public final class RayPodFactory {
    /** Index of the Ray container in the Pod's containers ({@code utils.RayContainerIndex}). */
    public static final int RAY_CONTAINER_INDEX = 0;
    /** Name of the injected autoscaler sidecar. */
    public static final String AUTOSCALER_CONTAINER = "autoscaler";
    private static final String ULIMIT = "ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; ";
    private static final Set<String> TRI_STATE_PARAMS = Set.of("log-color", "include-dashboard", "include-log-monitor");

    private RayPodFactory() {
    }

    /** Fully qualified head Service address, {@code <svc>.<ns>.svc.cluster.local}. */
    public static String fqdnHeadService(String cluster, String namespace) {
        return RayLabels.headServiceName(cluster) + "." + namespace + ".svc.cluster.local";
    }

    /** The head Pod {@code <cluster>-head}. */
    public static ObjectNode headPod(StoredObject cluster, RayClusterSpec spec) {
        HeadGroupSpec head = spec.headGroupSpec();
        Map<String, String> labels = baseLabels(cluster.name(), RayLabels.NODE_TYPE_HEAD, RayLabels.HEAD_GROUP);
        ObjectNode pod = skeleton(cluster, RayLabels.headPodName(cluster.name()), head.template(), labels);
        ObjectNode ann = Json.child((ObjectNode) pod.get("metadata"), "annotations");
        ann.put(RayLabels.FT_ENABLED, "false");
        ann.put(RayLabels.KUBERAY_VERSION, RayLabels.OPERATOR_VERSION);
        ObjectNode podSpec = (ObjectNode) pod.get("spec");
        boolean autoscaling = Boolean.TRUE.equals(spec.enableInTreeAutoscaling());
        ObjectNode ray = rayContainer(podSpec);
        Map<String, String> params = startParams(head.rayStartParams(), head.resources(), head.labels(), ray);
        params.putIfAbsent("dashboard-host", "0.0.0.0");
        if (autoscaling) {
            params.put("no-monitor", "true");
        }
        String startCmd = "ray start --head " + flags(params);
        setCommand(cluster, ray, startCmd);
        String fqdn = fqdnHeadService(cluster.name(), cluster.namespace());
        setEnv(ray, RayLabels.NODE_TYPE_HEAD, fqdn, startCmd, "127.0.0.1:" + RayLabels.GCS_PORT);
        addMetricsPort(ray);
        addSharedMemory(podSpec, ray, params);
        if (autoscaling) {
            addAutoscaler(podSpec, ray, spec);
        }
        return pod;
    }

    /**
     * A worker Pod {@code <cluster>-worker-<group>-<index>} with {@code ray.io/worker-group-replica-index}. For
     * multi-host groups the index counts Pods, and the replica/host labels are derived from it.
     */
    public static ObjectNode workerPod(StoredObject cluster, RayClusterSpec spec, WorkerGroupSpec group, int index) {
        Map<String, String> labels = baseLabels(cluster.name(), RayLabels.NODE_TYPE_WORKER, group.groupName());
        ObjectNode pod = skeleton(cluster, RayLabels.workerPodName(cluster.name(), group.groupName(), index),
                group.template(), labels);
        ObjectNode podLabels = (ObjectNode) pod.path("metadata").get("labels");
        int hosts = group.numOfHostsOrDefault();
        podLabels.put(RayLabels.WORKER_GROUP_REPLICA_INDEX, Integer.toString(index / hosts));
        if (hosts > 1) {
            podLabels.put(RayLabels.WORKER_GROUP_REPLICA_NAME, group.groupName() + "-" + (index / hosts));
            podLabels.put(RayLabels.REPLICA_HOST_INDEX, Integer.toString(index % hosts));
        }
        ObjectNode podSpec = (ObjectNode) pod.get("spec");
        ObjectNode ray = rayContainer(podSpec);
        String fqdn = fqdnHeadService(cluster.name(), cluster.namespace());
        Map<String, String> params = startParams(group.rayStartParams(), group.resources(), group.labels(), ray);
        params.putIfAbsent("address", fqdn + ":" + RayLabels.GCS_PORT);
        String startCmd = "ray start " + flags(params);
        setCommand(cluster, ray, startCmd);
        setEnv(ray, RayLabels.NODE_TYPE_WORKER, fqdn, startCmd, fqdn + ":" + RayLabels.GCS_PORT);
        addMetricsPort(ray);
        addSharedMemory(podSpec, ray, params);
        addWaitGcsReady(podSpec, ray, fqdn);
        return pod;
    }

    /** The seven labels KubeRay always puts on Ray Pods ({@code labelPod}). */
    public static Map<String, String> baseLabels(String cluster, String nodeType, String group) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(RayLabels.IS_RAY_NODE, "yes");
        m.put(RayLabels.CLUSTER, cluster);
        m.put(RayLabels.NODE_TYPE, nodeType);
        m.put(RayLabels.GROUP, group);
        m.put(RayLabels.IDENTIFIER, cluster + "-" + nodeType);
        m.put(RayLabels.APP_NAME, RayLabels.APP_NAME_VALUE);
        m.put(RayLabels.CREATED_BY, RayLabels.CREATED_BY_VALUE);
        return m;
    }

    private static ObjectNode skeleton(StoredObject cluster, String name, ObjectNode template,
            Map<String, String> defaults) {
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        JsonNode tmeta = template == null ? null : template.get("metadata");
        if (tmeta instanceof ObjectNode tm) {
            meta.setAll(tm.deepCopy());
        }
        meta.remove(List.of("generateName", "resourceVersion", "uid", "creationTimestamp"));
        meta.put("name", name);
        meta.put("namespace", cluster.namespace());
        ObjectNode labels = Json.object();
        defaults.forEach(labels::put);
        JsonNode tl = meta.get("labels");
        if (tl instanceof ObjectNode tlo) {
            // template labels win, except the three KubeRay relies on to find its Pods
            tlo.properties().forEach(e -> {
                if (!Set.of(RayLabels.NODE_TYPE, RayLabels.GROUP, RayLabels.CLUSTER).contains(e.getKey())) {
                    labels.set(e.getKey(), e.getValue());
                }
            });
        }
        meta.set("labels", labels);
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(cluster));
        JsonNode tspec = template == null ? null : template.get("spec");
        pod.set("spec", tspec instanceof ObjectNode ts ? ts.deepCopy() : Json.object());
        return pod;
    }

    private static ObjectNode rayContainer(ObjectNode podSpec) {
        return (ObjectNode) podSpec.get("containers").get(RAY_CONTAINER_INDEX);
    }

    /** rayStartParams with KubeRay's additions common to head and workers ({@code setMissingRayStartParams}). */
    private static Map<String, String> startParams(Map<String, String> user, Map<String, String> groupResources,
            Map<String, String> groupLabels, ObjectNode ray) {
        Map<String, String> p = new TreeMap<>(user == null ? Map.of() : user);
        p.putIfAbsent("metrics-export-port", Integer.toString(RayLabels.METRICS_PORT));
        p.putIfAbsent("block", "true");
        p.putIfAbsent("dashboard-agent-listen-port", Integer.toString(RayLabels.DASHBOARD_AGENT_PORT));
        if (groupResources != null && !groupResources.isEmpty()) {
            Map<String, String> custom = new TreeMap<>();
            groupResources.forEach((k, v) -> {
                switch (k) {
                    case "CPU" -> p.put("num-cpus", v);
                    case "GPU" -> p.put("num-gpus", v);
                    case "memory" -> p.put("memory", v);
                    default -> custom.put(k, v);
                }
            });
            if (!custom.isEmpty()) {
                p.put("resources", resourcesJson(custom));
            }
        } else {
            JsonNode limits = ray.path("resources").path("limits");
            JsonNode requests = ray.path("resources").path("requests");
            if (!p.containsKey("num-cpus")) {
                String cpu = nonZero(limits, "cpu") != null ? nonZero(limits, "cpu") : nonZero(requests, "cpu");
                if (cpu != null) {
                    p.put("num-cpus", Long.toString(ResourceQuantities.ceil(cpu)));
                }
            }
            if (!p.containsKey("memory") && nonZero(limits, "memory") != null) {
                p.put("memory", Long.toString(ResourceQuantities.ceil(nonZero(limits, "memory"))));
            }
            if (!p.containsKey("num-gpus")) {
                long gpus = 0;
                for (var e : limits.properties()) {
                    if (e.getKey().endsWith("gpu")) {
                        gpus += ResourceQuantities.ceil(e.getValue().asString());
                    }
                }
                if (gpus > 0) {
                    p.put("num-gpus", Long.toString(gpus));
                }
            }
            String tpu = nonZero(limits, "google.com/tpu");
            if (!p.containsKey("resources") && tpu != null) {
                p.put("resources", resourcesJson(Map.of("TPU", Long.toString(ResourceQuantities.ceil(tpu)))));
            }
        }
        if (groupLabels != null && !groupLabels.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            new TreeMap<>(groupLabels).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : ",").append(k).append('=').append(v));
            p.put("labels", sb.toString());
        }
        return p;
    }

    private static String resourcesJson(Map<String, String> resources) {
        StringBuilder sb = new StringBuilder("'{");
        new TreeMap<>(resources).forEach((k, v) -> sb.append(sb.length() > 2 ? "," : "")
                .append('"').append(k).append("\":").append(v));
        return sb.append("}'").toString();
    }

    private static String nonZero(JsonNode list, String key) {
        JsonNode q = list.get(key);
        if (q == null || q.isNull()) {
            return null;
        }
        String s = q.isNumber() ? q.asString() : q.asString();
        return ResourceQuantities.amount(s).signum() == 0 ? null : s;
    }

    /** {@code convertParamMap}: sorted; "true" becomes a bare flag and "false" is dropped, but for tri-state flags. */
    static String flags(Map<String, String> params) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(params).forEach((k, v) -> {
            String lower = v.toLowerCase();
            if ((lower.equals("true") || lower.equals("false")) && !TRI_STATE_PARAMS.contains(k)) {
                if (lower.equals("true")) {
                    sb.append(sb.isEmpty() ? "" : " ").append("--").append(k);
                }
            } else {
                sb.append(sb.isEmpty() ? "" : " ").append("--").append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }

    private static void setCommand(StoredObject cluster, ObjectNode ray, String startCmd) {
        JsonNode ann = Json.at(cluster.object(), "metadata", "annotations");
        if (ann != null && "true".equals(Json.text(ann, RayLabels.OVERWRITE_CONTAINER_CMD))) {
            return;
        }
        StringBuilder user = new StringBuilder();
        for (String f : List.of("command", "args")) {
            JsonNode n = ray.get(f);
            if (n != null && n.isArray()) {
                n.forEach(x -> user.append(user.isEmpty() ? "" : " ").append(x.asString()));
            }
        }
        if (user.toString().contains("ray start")) {
            return;
        }
        String generated = ULIMIT + startCmd;
        ArrayNode command = ray.putArray("command");
        command.add("/bin/bash").add("-c").add("--");
        ray.putArray("args").add(user.isEmpty() ? generated : user + " && " + generated);
    }

    private static void setEnv(ObjectNode ray, String nodeType, String fqdn, String startCmd, String address) {
        ArrayNode env = ray.get("env") instanceof ArrayNode a ? a : ray.putArray("env");
        if (RayLabels.NODE_TYPE_WORKER.equals(nodeType)) {
            addEnv(env, "FQ_RAY_IP", fqdn);
            addEnv(env, "RAY_IP", fqdn.substring(0, fqdn.indexOf('.')));
        }
        addFieldEnv(env, "RAY_CLUSTER_NAME", "metadata.labels['" + RayLabels.CLUSTER + "']");
        addFieldEnv(env, "RAY_CLUSTER_NAMESPACE", "metadata.namespace");
        addFieldEnv(env, "RAY_CLOUD_INSTANCE_ID", "metadata.name");
        addFieldEnv(env, "RAY_NODE_TYPE_NAME", "metadata.labels['" + RayLabels.GROUP + "']");
        addEnv(env, "KUBERAY_GEN_RAY_START_CMD", startCmd);
        addEnv(env, "RAY_PORT", Integer.toString(RayLabels.GCS_PORT));
        addEnv(env, "RAY_ADDRESS", address);
        addEnv(env, "RAY_USAGE_STATS_KUBERAY_IN_USE", "1");
        if (RayLabels.NODE_TYPE_HEAD.equals(nodeType)) {
            addEnv(env, "RAY_USAGE_STATS_EXTRA_TAGS", "kuberay_version=" + RayLabels.OPERATOR_VERSION
                    + ";kuberay_crd=RayCluster");
        }
        addEnv(env, "RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE", "1");
    }

    private static boolean hasEnv(ArrayNode env, String name) {
        for (JsonNode e : env) {
            if (name.equals(Json.text(e, "name"))) {
                return true;
            }
        }
        return false;
    }

    private static void addEnv(ArrayNode env, String name, String value) {
        if (!hasEnv(env, name)) {
            env.addObject().put("name", name).put("value", value);
        }
    }

    private static void addFieldEnv(ArrayNode env, String name, String fieldPath) {
        if (!hasEnv(env, name)) {
            env.addObject().put("name", name).putObject("valueFrom").putObject("fieldRef")
                    .put("apiVersion", "v1").put("fieldPath", fieldPath);
        }
    }

    private static void addMetricsPort(ObjectNode ray) {
        ArrayNode ports = ray.get("ports") instanceof ArrayNode a ? a : ray.putArray("ports");
        for (JsonNode p : ports) {
            if ("metrics".equals(Json.text(p, "name"))) {
                return;
            }
        }
        ports.addObject().put("name", "metrics").put("containerPort", RayLabels.METRICS_PORT).put("protocol", "TCP");
    }

    private static void addSharedMemory(ObjectNode podSpec, ObjectNode ray, Map<String, String> params) {
        if (params.containsKey("plasma-directory")) {
            return;
        }
        ArrayNode mounts = ray.get("volumeMounts") instanceof ArrayNode a ? a : null;
        if (mounts != null) {
            for (JsonNode m : mounts) {
                if ("/dev/shm".equals(Json.text(m, "mountPath"))) {
                    return;
                }
            }
        }
        ArrayNode volumes = podSpec.get("volumes") instanceof ArrayNode a ? a : podSpec.putArray("volumes");
        ObjectNode emptyDir = volumes.addObject().put("name", "shared-mem").putObject("emptyDir");
        emptyDir.put("medium", "Memory");
        JsonNode res = ray.path("resources");
        String size = Json.text(res, "limits", "memory") != null ? Json.text(res, "limits", "memory")
                : Json.text(res, "requests", "memory");
        if (size != null) {
            emptyDir.put("sizeLimit", size);
        }
        (mounts != null ? mounts : ray.putArray("volumeMounts")).addObject()
                .put("name", "shared-mem").put("mountPath", "/dev/shm");
    }

    private static void addWaitGcsReady(ObjectNode podSpec, ObjectNode ray, String fqdn) {
        ArrayNode inits = podSpec.get("initContainers") instanceof ArrayNode a ? a : podSpec.putArray("initContainers");
        ObjectNode c = inits.addObject();
        c.put("name", "wait-gcs-ready");
        if (ray.has("image")) {
            c.set("image", ray.get("image").deepCopy());
        }
        if (ray.has("imagePullPolicy")) {
            c.set("imagePullPolicy", ray.get("imagePullPolicy").deepCopy());
        }
        c.putArray("command").add("/bin/bash").add("-c").add("--");
        String address = fqdn + ":" + RayLabels.GCS_PORT;
        c.putArray("args").add("SECONDS=0; while true; do if (( SECONDS <= 120 )); then if ray health-check --address "
                + address + " > /dev/null 2>&1; then echo \"GCS is ready.\"; break; fi; echo \"$SECONDS seconds "
                + "elapsed: Waiting for GCS to be ready.\"; else if ray health-check --address " + address
                + "; then echo \"GCS is ready. Any error messages above can be safely ignored.\"; break; fi; echo "
                + "\"$SECONDS seconds elapsed: Still waiting for GCS to be ready.\"; fi; sleep 5; done");
        ArrayNode env = c.putArray("env");
        addEnv(env, "FQ_RAY_IP", fqdn);
        addEnv(env, "RAY_IP", fqdn.substring(0, fqdn.indexOf('.')));
        ObjectNode res = c.putObject("resources");
        res.putObject("limits").put("cpu", "200m").put("memory", "256Mi");
        res.putObject("requests").put("cpu", "200m").put("memory", "256Mi");
        if (ray.get("volumeMounts") instanceof ArrayNode m) {
            c.set("volumeMounts", m.deepCopy());
        }
    }

    private static void addAutoscaler(ObjectNode podSpec, ObjectNode ray, RayClusterSpec spec) {
        ObjectNode c = ((ArrayNode) podSpec.get("containers")).addObject();
        c.put("name", AUTOSCALER_CONTAINER);
        ObjectNode opts = spec.autoscalerOptions() == null ? Json.object()
                : (ObjectNode) Json.MAPPER.valueToTree(spec.autoscalerOptions());
        JsonNode image = opts.has("image") ? opts.get("image") : ray.get("image");
        if (image != null) {
            c.set("image", image.deepCopy());
        }
        c.put("imagePullPolicy", opts.has("imagePullPolicy") ? opts.get("imagePullPolicy").asString() : "IfNotPresent");
        c.putArray("command").add("/bin/bash").add("-lc").add("--");
        c.putArray("args").add("ray kuberay-autoscaler --cluster-name $(RAY_CLUSTER_NAME) "
                + "--cluster-namespace $(RAY_CLUSTER_NAMESPACE)");
        ArrayNode env = c.putArray("env");
        addFieldEnv(env, "RAY_CLUSTER_NAME", "metadata.labels['" + RayLabels.CLUSTER + "']");
        addFieldEnv(env, "RAY_CLUSTER_NAMESPACE", "metadata.namespace");
        addFieldEnv(env, "RAY_HEAD_POD_NAME", "metadata.name");
        addEnv(env, "KUBERAY_CRD_VER", "v1");
        if (opts.get("resources") instanceof ObjectNode r) {
            c.set("resources", r.deepCopy());
        } else {
            ObjectNode res = c.putObject("resources");
            res.putObject("limits").put("cpu", "500m").put("memory", "512Mi");
            res.putObject("requests").put("cpu", "500m").put("memory", "512Mi");
        }
    }
}
