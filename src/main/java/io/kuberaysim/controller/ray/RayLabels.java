package io.kuberaysim.controller.ray;

/**
 * Label, annotation and well-known value constants of the KubeRay operator
 * ({@code ray-operator/controllers/ray/utils/constant.go}), shared by the RayCluster, RayJob and RayService
 * controllers.
 */
public final class RayLabels {
    /** Label: name of the RayCluster a Pod or Service belongs to. */
    public static final String CLUSTER = "ray.io/cluster";
    /** Label: {@code head} or {@code worker}. */
    public static final String NODE_TYPE = "ray.io/node-type";
    /** Label: worker group name, {@code headgroup} for the head. */
    public static final String GROUP = "ray.io/group";
    /** Label: {@code <cluster>-head} or {@code <cluster>-worker}. */
    public static final String IDENTIFIER = "ray.io/identifier";
    /** Label: always {@code yes} on Ray Pods. */
    public static final String IS_RAY_NODE = "ray.io/is-ray-node";
    /** Label: index of the worker replica within its group (RayMultiHostIndexing). */
    public static final String WORKER_GROUP_REPLICA_INDEX = "ray.io/worker-group-replica-index";
    /** Label: name of the multi-host replica a worker belongs to. */
    public static final String WORKER_GROUP_REPLICA_NAME = "ray.io/worker-group-replica-name";
    /** Label: index of the host within a multi-host replica. */
    public static final String REPLICA_HOST_INDEX = "ray.io/replica-host-index";
    /** Label: serve traffic selector on RayService clusters. */
    public static final String SERVE = "ray.io/serve";
    /** Label: the CR a RayCluster was created from (RayJob / RayService). */
    public static final String ORIGINATED_FROM_CR_NAME = "ray.io/originated-from-cr-name";
    /** Label: the kind of CR a RayCluster was created from. */
    public static final String ORIGINATED_FROM_CRD = "ray.io/originated-from-crd";
    /** Label {@code app.kubernetes.io/name}. */
    public static final String APP_NAME = "app.kubernetes.io/name";
    /** Label {@code app.kubernetes.io/created-by}. */
    public static final String CREATED_BY = "app.kubernetes.io/created-by";

    /** Value of {@link #APP_NAME}. */
    public static final String APP_NAME_VALUE = "kuberay";
    /** Value of {@link #CREATED_BY}. */
    public static final String CREATED_BY_VALUE = "kuberay-operator";
    /** {@link #NODE_TYPE} of the head. */
    public static final String NODE_TYPE_HEAD = "head";
    /** {@link #NODE_TYPE} of workers. */
    public static final String NODE_TYPE_WORKER = "worker";
    /** {@link #GROUP} of the head. */
    public static final String HEAD_GROUP = "headgroup";

    /** Annotation on the head Pod: GCS fault tolerance on or off. */
    public static final String FT_ENABLED = "ray.io/ft-enabled";
    /** Annotation on the head Pod: operator version that created it. */
    public static final String KUBERAY_VERSION = "ray.io/kuberay-version";
    /** Annotation on the head Pod: hash of the cluster spec it was made from (Recreate upgrade strategy). */
    public static final String UPGRADE_STRATEGY_RECREATE_HASH = "ray.io/upgrade-strategy-recreate-hash";
    /** Annotation on a RayCluster: also create {@code <cluster>-serve-svc}. */
    public static final String ENABLE_SERVE_SERVICE = "ray.io/enable-serve-service";
    /** Annotation on a RayCluster: never recreate the head once provisioned (RayJob sidecar mode). */
    public static final String DISABLE_PROVISIONED_HEAD_RESTART = "ray.io/disable-provisioned-head-restart";
    /** Annotation on a RayCluster: leave the Ray container command as the user wrote it. */
    public static final String OVERWRITE_CONTAINER_CMD = "ray.io/overwrite-container-cmd";
    /**
     * Simulation-only annotation on a RayCluster with {@code enableInTreeAutoscaling}: a JSON map
     * {@code {"group": wantedWorkers}} read by the simulated autoscaler in place of Ray's resource demand.
     */
    public static final String AUTOSCALER_DEMAND = "sim.kuberay.io/autoscaler-demand";

    /** The operator version the simulation reports (annotations, usage-stats env). */
    public static final String OPERATOR_VERSION = "v1.7.0";
    /** {@code spec.managedBy} value owned by this operator. */
    public static final String MANAGED_BY_KUBERAY = "ray.io/kuberay-operator";

    /** GCS port on the head. */
    public static final int GCS_PORT = 6379;
    /** Ray client port. */
    public static final int CLIENT_PORT = 10001;
    /** Dashboard port. */
    public static final int DASHBOARD_PORT = 8265;
    /** Metrics export port. */
    public static final int METRICS_PORT = 8080;
    /** Ray Serve HTTP port. */
    public static final int SERVE_PORT = 8000;
    /** Dashboard agent port used by the probes. */
    public static final int DASHBOARD_AGENT_PORT = 52365;

    private RayLabels() {
    }

    /**
     * KubeRay's {@code CheckName}: a name longer than 50 characters keeps its last 50, and a first character that is
     * a digit or punctuation becomes {@code r} (names of the autoscaler's RBAC objects and the auth Secret).
     */
    public static String checkName(String s) {
        String out = s.length() > 50 ? s.substring(s.length() - 50) : s;
        char first = out.charAt(0);
        if (Character.isDigit(first) || isPunct(first)) {
            out = "r" + out.substring(1);
        }
        return out;
    }

    /** KubeRay's {@code CheckLabel}/{@code TrimJobName}: the last 63 characters, a leading punctuation made {@code r}. */
    public static String checkLabel(String s) {
        String out = s.length() > 63 ? s.substring(s.length() - 63) : s;
        return isPunct(out.charAt(0)) ? "r" + out.substring(1) : out;
    }

    /** Go's {@code unicode.IsPunct} for the characters a Kubernetes name may hold. */
    private static boolean isPunct(char c) {
        return c == '-' || c == '.' || c == '_';
    }

    /** {@code <cluster>-head-svc} (KubeRay {@code GenerateHeadServiceName}). */
    public static String headServiceName(String cluster) {
        return cluster + "-head-svc";
    }

    /** {@code <cluster>-serve-svc} (KubeRay {@code GenerateServeServiceName}). */
    public static String serveServiceName(String cluster) {
        return cluster + "-serve-svc";
    }

    /** {@code <cluster>-head}, the deterministic head Pod name, lower-cased as KubeRay's {@code utils.PodName}. */
    public static String headPodName(String cluster) {
        return (cluster + "-head").toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * {@code <cluster>-worker-<group>-<index>}, the simulation's deterministic worker Pod name, lower-cased as
     * KubeRay's {@code utils.PodName} does (a group named {@code BigGroup} gets valid Pod names).
     */
    public static String workerPodName(String cluster, String group, int index) {
        return workerPrefix(cluster, group) + index;
    }

    private static String workerPrefix(String cluster, String group) {
        return (cluster + "-worker-" + group + "-").toLowerCase(java.util.Locale.ROOT);
    }

    /** The index {@code i} of a worker Pod named {@link #workerPodName}, or null when the name is not of that form. */
    public static Integer workerIndex(String cluster, String group, String podName) {
        String prefix = workerPrefix(cluster, group);
        if (!podName.startsWith(prefix)) {
            return null;
        }
        try {
            return Integer.parseInt(podName.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
