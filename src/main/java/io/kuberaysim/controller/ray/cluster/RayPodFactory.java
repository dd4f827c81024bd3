package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.AutoscalerOptions;
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

/**
 * Builds head and worker Pods from the group templates the way KubeRay's {@code common/pod.go}
 * ({@code DefaultHeadPodTemplate}, {@code DefaultWorkerPodTemplate}, {@code BuildPod}) does: Ray labels (with
 * the group's {@code labels}) and annotations, the generated {@code ray start} command line
 * ({@link RayStartCommand}), Ray env vars by creator, the metrics port, the shared-memory and log volumes, the
 * worker {@code wait-gcs-ready} init container and the autoscaler sidecar ({@link RayContainers}), the
 * autoscaler's ServiceAccount, and a controller ownerReference. Everything else in the user's template is copied verbatim,
 * unknown fields included.
 */
public final class RayPodFactory {
    /** Index of the Ray container in the Pod's containers ({@code utils.RayContainerIndex}). */
    public static final int RAY_CONTAINER_INDEX = 0;
    private static final String ULIMIT = "ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; ";

    private RayPodFactory() {
    }

    /** Fully qualified head Service address, {@code <svc>.<ns>.svc.cluster.local}. */
    public static String fqdnHeadService(String cluster, String namespace) {
        return RayLabels.headServiceName(cluster) + "." + namespace + ".svc.cluster.local";
    }

    /** The head Pod {@code <cluster>-head} (lower case, as {@code utils.PodName}). */
    public static ObjectNode headPod(StoredObject cluster, RayClusterSpec spec) {
        HeadGroupSpec head = spec.headGroupSpec();
        Map<String, String> labels = baseLabels(cluster.name(), RayLabels.NODE_TYPE_HEAD, RayLabels.HEAD_GROUP);
        ObjectNode pod = skeleton(cluster, RayLabels.headPodName(cluster.name()), head.template(), labels,
                head.labels());
        ObjectNode ann = Json.child((ObjectNode) pod.get("metadata"), "annotations");
        ann.put(RayLabels.FT_ENABLED, Boolean.toString(GcsFaultTolerance.enabled(spec, cluster.annotations())));
        ann.put(RayLabels.KUBERAY_VERSION, RayLabels.OPERATOR_VERSION);
        ObjectNode podSpec = (ObjectNode) pod.get("spec");
        boolean autoscaling = Boolean.TRUE.equals(spec.enableInTreeAutoscaling());
        ObjectNode ray = rayContainer(podSpec);
        String fqdn = fqdnHeadService(cluster.name(), cluster.namespace());
        String port = headPort(spec);
        ObjectNode templateRay = ray.deepCopy();
        RayStartCommand start = RayStartCommand.of(true, GcsFaultTolerance.headStartParams(cluster, spec),
                head.resources(), head.labels(), ray.get("resources"), null, autoscaling);
        if (autoscaling) {
            // DefaultHeadPodTemplate: the sidecar, the autoscaler's ServiceAccount, the v1/v2 switch
            String sa = Json.text(podSpec, "serviceAccountName");
            podSpec.put("serviceAccountName", RayLabels.checkName(sa == null || sa.isEmpty() ? cluster.name() : sa));
            ObjectNode sidecar = RayContainers.autoscaler(templateRay, spec.autoscalerOptions() == null ? null
                    : Json.MAPPER.valueToTree(spec.autoscalerOptions()), c -> {
                        if (TokenAuth.enabled(spec.authOptions())) {
                            TokenAuth.configureContainer(c, cluster.name(), spec.authOptions());
                        }
                    });
            ((ArrayNode) podSpec.get("containers")).add(sidecar);
            AutoscalerOptions.Version version = spec.autoscalerOptions() == null ? null
                    : spec.autoscalerOptions().version();
            if (version != null) {
                ArrayNode env = ray.get("env") instanceof ArrayNode a ? a : ray.putArray("env");
                env.addObject().put("name", "RAY_enable_autoscaler_v2")
                        .put("value", version == AutoscalerOptions.Version.v2 ? "true" : "false");
                if (version == AutoscalerOptions.Version.v2) {
                    podSpec.put("restartPolicy", "Never");
                }
            }
        }
        GcsFaultTolerance.configureHead(pod, ray, cluster, spec);
        addMetricsPort(ray);
        if (TokenAuth.enabled(spec.authOptions())) {
            TokenAuth.configurePod(podSpec, cluster.name(), spec.authOptions());
        }
        // BuildPod
        addServeLabel(cluster, pod, "false");
        addSharedMemory(podSpec, ray, start.params());
        if (autoscaling) {
            ObjectNode sidecar = (ObjectNode) podSpec.get("containers").get(podSpec.get("containers").size() - 1);
            addEmptyDir(podSpec, ray, "ray-logs", "/tmp/ray");
            addEmptyDir(podSpec, sidecar, "ray-logs", "/tmp/ray");
        }
        setCommand(cluster, ray, start.command());
        addInitContainerEnv(podSpec, fqdn);
        setEnv(ray, RayLabels.NODE_TYPE_HEAD, fqdn, port, start.command(), creator(cluster));
        return pod;
    }

    /**
     * A worker Pod {@code <cluster>-worker-<group>-<index>} (lower case) with
     * {@code ray.io/worker-group-replica-index}. For multi-host groups the index counts Pods, and the replica/host
     * labels are derived from it.
     */
    public static ObjectNode workerPod(StoredObject cluster, RayClusterSpec spec, WorkerGroupSpec group, int index) {
        Map<String, String> labels = baseLabels(cluster.name(), RayLabels.NODE_TYPE_WORKER, group.groupName());
        ObjectNode pod = skeleton(cluster, RayLabels.workerPodName(cluster.name(), group.groupName(), index),
                group.template(), labels, group.labels());
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
        String port = headPort(spec);
        // DefaultWorkerPodTemplate: the init container copies the Ray container before KubeRay adds its env
        ArrayNode inits = podSpec.get("initContainers") instanceof ArrayNode a ? a : podSpec.putArray("initContainers");
        inits.add(RayContainers.waitGcsReady(ray, fqdn, port));
        RayStartCommand start = RayStartCommand.of(false, group.rayStartParams(), group.resources(), group.labels(),
                ray.get("resources"), fqdn + ":" + port, false);
        GcsFaultTolerance.configureWorker(ray, cluster, spec);
        addMetricsPort(ray);
        if (Boolean.TRUE.equals(spec.enableInTreeAutoscaling()) && spec.autoscalerOptions() != null
                && spec.autoscalerOptions().version() == AutoscalerOptions.Version.v2) {
            podSpec.put("restartPolicy", "Never");
        }
        if (TokenAuth.enabled(spec.authOptions())) {
            TokenAuth.configurePod(podSpec, cluster.name(), spec.authOptions());
        }
        // BuildPod
        addServeLabel(cluster, pod, "true");
        addSharedMemory(podSpec, ray, start.params());
        setCommand(cluster, ray, start.command());
        addInitContainerEnv(podSpec, fqdn);
        setEnv(ray, RayLabels.NODE_TYPE_WORKER, fqdn, port, start.command(), creator(cluster));
        return pod;
    }

    /** {@code GetHeadPort}: the head group's {@code rayStartParams.port}, else the GCS default 6379. */
    static String headPort(RayClusterSpec spec) {
        Map<String, String> p = spec.headGroupSpec().rayStartParams();
        return p != null && p.containsKey("port") ? p.get("port") : Integer.toString(RayLabels.GCS_PORT);
    }

    /** The CRD that created the cluster ({@code ray.io/originated-from-crd}), RayCluster for a user's own. */
    static String creator(StoredObject cluster) {
        String crd = cluster.labels().get(RayLabels.ORIGINATED_FROM_CRD);
        return "RayJob".equals(crd) || "RayService".equals(crd) ? crd : "RayCluster";
    }

    /** {@code BuildPod}: Pods of a RayService's cluster get {@code ray.io/serve} (head "false", workers "true"). */
    private static void addServeLabel(StoredObject cluster, ObjectNode pod, String value) {
        if ("RayService".equals(creator(cluster))) {
            ((ObjectNode) pod.path("metadata").get("labels")).put(RayLabels.SERVE, value);
        }
    }

    /** {@code setInitContainerEnvVars}: every init container learns where the head is. */
    private static void addInitContainerEnv(ObjectNode podSpec, String fqdn) {
        if (podSpec.get("initContainers") instanceof ArrayNode inits) {
            for (JsonNode c : inits) {
                ArrayNode env = c.get("env") instanceof ArrayNode a ? a : ((ObjectNode) c).putArray("env");
                env.addObject().put("name", "FQ_RAY_IP").put("value", fqdn);
                env.addObject().put("name", "RAY_IP").put("value", fqdn.substring(0, fqdn.indexOf('.')));
            }
        }
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
            Map<String, String> defaults, Map<String, String> groupLabels) {
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
        // mergeLabels: template labels, then the group's labels on top; labelPod: they win over the defaults,
        // except the three KubeRay relies on to find its Pods
        Map<String, String> merged = new LinkedHashMap<>();
        JsonNode tl = meta.get("labels");
        if (tl instanceof ObjectNode tlo) {
            tlo.properties().forEach(e -> merged.put(e.getKey(), e.getValue().asString()));
        }
        if (groupLabels != null) {
            merged.putAll(groupLabels);
        }
        merged.forEach((k, v) -> {
            if (!Set.of(RayLabels.NODE_TYPE, RayLabels.GROUP, RayLabels.CLUSTER).contains(k)) {
                labels.put(k, v);
            }
        });
        meta.set("labels", labels);
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(cluster));
        JsonNode tspec = template == null ? null : template.get("spec");
        pod.set("spec", tspec instanceof ObjectNode ts ? ts.deepCopy() : Json.object());
        return pod;
    }

    private static ObjectNode rayContainer(ObjectNode podSpec) {
        return (ObjectNode) podSpec.get("containers").get(RAY_CONTAINER_INDEX);
    }

    private static void setCommand(StoredObject cluster, ObjectNode ray, String startCmd) {
        JsonNode ann = Json.at(cluster.object(), "metadata", "annotations");
        if (ann != null && "true".equals(Json.text(ann, RayLabels.OVERWRITE_CONTAINER_CMD))) {
            return;
        }
        // convertCmdToString: each word of command and args written " %s "
        StringBuilder user = new StringBuilder();
        for (String f : List.of("command", "args")) {
            JsonNode n = ray.get(f);
            if (n != null && n.isArray()) {
                n.forEach(x -> user.append(' ').append(x.asString()).append(' '));
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

    /** {@code setContainerEnvVars}, with the RayService-only timeouts and the creator in the usage tags. */
    private static void setEnv(ObjectNode ray, String nodeType, String fqdn, String port, String startCmd,
                               String creator) {
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
        addEnv(env, "RAY_PORT", port);
        if ("RayService".equals(creator)) {
            addEnv(env, "RAY_timeout_ms_task_wait_for_death_info", "0");
            addEnv(env, "RAY_gcs_server_request_timeout_seconds", "5");
            addEnv(env, "RAY_SERVE_KV_TIMEOUT_S", "5");
        }
        boolean head = RayLabels.NODE_TYPE_HEAD.equals(nodeType);
        addEnv(env, "RAY_ADDRESS", (head ? "127.0.0.1" : fqdn) + ":" + port);
        addEnv(env, "RAY_USAGE_STATS_KUBERAY_IN_USE", "1");
        if (head) {
            addEnv(env, "RAY_USAGE_STATS_EXTRA_TAGS", "kuberay_version=" + RayLabels.OPERATOR_VERSION
                    + ";kuberay_crd=" + creator);
        }
        addEnv(env, "RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE", "1");
    }

    /** Whether a list of env vars, volumes or mounts has an entry named {@code name} ({@code EnvVarExists}). */
    static boolean hasNamed(ArrayNode env, String name) {
        for (JsonNode e : env) {
            if (name.equals(Json.text(e, "name"))) {
                return true;
            }
        }
        return false;
    }

    private static void addEnv(ArrayNode env, String name, String value) {
        if (!hasNamed(env, name)) {
            env.addObject().put("name", name).put("value", value);
        }
    }

    private static void addFieldEnv(ArrayNode env, String name, String fieldPath) {
        if (!hasNamed(env, name)) {
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

    /** {@code addEmptyDir}: mount an emptyDir at {@code path} unless the container already mounts something there. */
    private static void addEmptyDir(ObjectNode podSpec, ObjectNode container, String volume, String path) {
        ArrayNode mounts = container.get("volumeMounts") instanceof ArrayNode a ? a : container.putArray("volumeMounts");
        for (JsonNode m : mounts) {
            if (path.equals(Json.text(m, "mountPath"))) {
                return;
            }
        }
        ArrayNode volumes = podSpec.get("volumes") instanceof ArrayNode a ? a : podSpec.putArray("volumes");
        boolean exists = false;
        for (JsonNode v : volumes) {
            exists |= volume.equals(Json.text(v, "name"));
        }
        if (!exists) {
            volumes.addObject().put("name", volume).putObject("emptyDir");
        }
        mounts.addObject().put("name", volume).put("mountPath", path);
    }
}
