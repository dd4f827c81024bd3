package io.kuberaysim.controller.ray.service;

/**
 * Label, annotation and name constants the RayService controller uses (KubeRay {@code utils/constant.go}).
 * They spell the same keys as the shared Ray constants; kept here so the RayService controller reads as one unit.
 */
public final class ServiceKeys {
    /** Finalizer of a RayService. */
    public static final String FINALIZER = "ray.io/rayservice-finalizer";
    /** Label: the RayCluster a Pod belongs to. */
    public static final String CLUSTER = "ray.io/cluster";
    /** Label: head or worker. */
    public static final String NODE_TYPE = "ray.io/node-type";
    /** Label: {@code <cluster>-head}. */
    public static final String IDENTIFIER = "ray.io/identifier";
    /** Label on Pods: "true" when the Pod serves traffic; on the serve Service: {@code <rayservice>-serve}. */
    public static final String SERVE = "ray.io/serve";
    /** Label: the CR a RayCluster or Service was created for. */
    public static final String ORIGINATED_FROM_CR_NAME = "ray.io/originated-from-cr-name";
    /** Label: the kind of that CR. */
    public static final String ORIGINATED_FROM_CRD = "ray.io/originated-from-crd";
    /** Label {@code app.kubernetes.io/name}. */
    public static final String APP_NAME = "app.kubernetes.io/name";
    /** Label {@code app.kubernetes.io/created-by}. */
    public static final String CREATED_BY = "app.kubernetes.io/created-by";
    /** Annotation on a RayCluster: the {@link ClusterSpecHash} of the spec it was built from. */
    public static final String HASH = "ray.io/hash-without-replicas-and-workers-to-delete";
    /** Annotation on a RayCluster: how many worker groups the hashed spec had. */
    public static final String NUM_WORKER_GROUPS = "ray.io/num-worker-groups";
    /** Annotation on a RayCluster: the operator version that built it. */
    public static final String KUBERAY_VERSION = "ray.io/kuberay-version";
    /** Operator version written to {@link #KUBERAY_VERSION}. */
    public static final String OPERATOR_VERSION = "v1.7.0";
    /** Value of {@link #ORIGINATED_FROM_CRD}. */
    public static final String CRD = "RayService";
    /** Event reporting component. */
    public static final String COMPONENT = "rayservice-controller";

    private ServiceKeys() {
    }

    /** {@code <rayservice>-head-svc}. */
    public static String headServiceName(String rayService) {
        return rayService + "-head-svc";
    }

    /** {@code <rayservice>-serve-svc}. */
    public static String serveServiceName(String rayService) {
        return rayService + "-serve-svc";
    }
}
