package io.kuberaysim.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The resources this server stores ({@link #ALL_TYPES}) and serves ({@link #SERVED_TYPES}, in discovery order).
 * A served type that is not stored is another version of a stored one (kube-apiserver serves events.k8s.io/v1
 * Events from the core Event storage).
 */
public final class ResourceTypes {
    private static final List<String> ALL = List.of("all");

    public static final ResourceType NAMESPACES = new ResourceType("", "v1", "Namespace", "namespaces", "namespace",
            false, true, List.of("ns"), List.of());
    public static final ResourceType NODES = new ResourceType("", "v1", "Node", "nodes", "node",
            false, true, List.of("no"), List.of());
    public static final ResourceType PODS = new ResourceType("", "v1", "Pod", "pods", "pod",
            true, true, List.of("po"), ALL);
    public static final ResourceType SERVICES = new ResourceType("", "v1", "Service", "services", "service",
            true, true, List.of("svc"), ALL);
    public static final ResourceType EVENTS = new ResourceType("", "v1", "Event", "events", "event",
            true, false, List.of("ev"), List.of());
    /** events.k8s.io/v1 Event: the same stored objects as {@link #EVENTS}, with kube's field mapping. */
    public static final ResourceType EVENTS_K8S_IO = new ResourceType("events.k8s.io", "v1", "Event", "events",
            "event", true, false, List.of("ev"), List.of());
    public static final ResourceType CONFIGMAPS = new ResourceType("", "v1", "ConfigMap", "configmaps", "configmap",
            true, false, List.of("cm"), List.of());
    public static final ResourceType SECRETS = new ResourceType("", "v1", "Secret", "secrets", "secret",
            true, false, List.of(), List.of());
    public static final ResourceType SERVICEACCOUNTS = new ResourceType("", "v1", "ServiceAccount", "serviceaccounts",
            "serviceaccount", true, false, List.of("sa"), List.of());
    public static final ResourceType ROLES = new ResourceType("rbac.authorization.k8s.io", "v1", "Role", "roles",
            "role", true, false, List.of(), List.of());
    public static final ResourceType ROLEBINDINGS = new ResourceType("rbac.authorization.k8s.io", "v1",
            "RoleBinding", "rolebindings", "rolebinding", true, false, List.of(), List.of());
    public static final ResourceType JOBS = new ResourceType("batch", "v1", "Job", "jobs", "job",
            true, true, List.of(), ALL);
    public static final ResourceType LEASES = new ResourceType("coordination.k8s.io", "v1", "Lease", "leases", "lease",
            true, false, List.of(), List.of());
    public static final ResourceType RAYCLUSTERS = new ResourceType("ray.io", "v1", "RayCluster", "rayclusters",
            "raycluster", true, true, List.of(), ALL);
    public static final ResourceType RAYJOBS = new ResourceType("ray.io", "v1", "RayJob", "rayjobs", "rayjob",
            true, true, List.of(), ALL);
    public static final ResourceType RAYSERVICES = new ResourceType("ray.io", "v1", "RayService", "rayservices",
            "rayservice", true, true, List.of(), ALL);
    /**
     * apiextensions.k8s.io/v1 CustomResourceDefinition: one per custom resource served here, present from the start
     * and read-only ({@link #isReadOnly}): the custom kinds are built in, not installed.
     */
    public static final ResourceType CUSTOMRESOURCEDEFINITIONS = new ResourceType("apiextensions.k8s.io", "v1",
            "CustomResourceDefinition", "customresourcedefinitions", "customresourcedefinition", false, false,
            List.of("crd", "crds"), List.of("api-extensions"));
    /** The simulation's own API (sim.kuberay.io): how the kubelet runs Pods, Nodes come and go, faults happen. */
    public static final ResourceType PODLIFECYCLERULES = new ResourceType("sim.kuberay.io", "v1alpha1",
            "PodLifecycleRule", "podlifecyclerules", "podlifecyclerule", true, false, List.of("plr"), List.of());
    public static final ResourceType NODELIFECYCLERULES = new ResourceType("sim.kuberay.io", "v1alpha1",
            "NodeLifecycleRule", "nodelifecyclerules", "nodelifecyclerule", false, false, List.of("nlr"), List.of());
    public static final ResourceType FAULTSCHEDULES = new ResourceType("sim.kuberay.io", "v1alpha1",
            "FaultSchedule", "faultschedules", "faultschedule", true, true, List.of("fs"), List.of());

    /** Every stored type (each has its own storage and strategy). */
    public static final List<ResourceType> ALL_TYPES = List.of(NAMESPACES, NODES, PODS, SERVICES, EVENTS, CONFIGMAPS,
            SECRETS, SERVICEACCOUNTS, JOBS, LEASES, ROLES, ROLEBINDINGS, CUSTOMRESOURCEDEFINITIONS, RAYCLUSTERS, RAYJOBS,
            RAYSERVICES, PODLIFECYCLERULES, NODELIFECYCLERULES, FAULTSCHEDULES);

    /**
     * Every served type, in kube-apiserver's discovery order (events.k8s.io before batch, rbac after it,
     * apiextensions.k8s.io after rbac, the custom resources' groups last).
     */
    public static final List<ResourceType> SERVED_TYPES = List.of(NAMESPACES, NODES, PODS, SERVICES, EVENTS,
            CONFIGMAPS, SECRETS, SERVICEACCOUNTS, EVENTS_K8S_IO, JOBS, LEASES, ROLES, ROLEBINDINGS,
            CUSTOMRESOURCEDEFINITIONS, RAYCLUSTERS, RAYJOBS, RAYSERVICES, PODLIFECYCLERULES, NODELIFECYCLERULES,
            FAULTSCHEDULES);

    public static final ResourceType SELF_SUBJECT_ACCESS_REVIEWS = new ResourceType("authorization.k8s.io", "v1",
            "SelfSubjectAccessReview", "selfsubjectaccessreviews", "selfsubjectaccessreview", false, false, List.of(),
            List.of());
    public static final ResourceType SELF_SUBJECT_RULES_REVIEWS = new ResourceType("authorization.k8s.io", "v1",
            "SelfSubjectRulesReview", "selfsubjectrulesreviews", "selfsubjectrulesreview", false, false, List.of(),
            List.of());
    public static final ResourceType SELF_SUBJECT_REVIEWS = new ResourceType("authentication.k8s.io", "v1",
            "SelfSubjectReview", "selfsubjectreviews", "selfsubjectreview", false, false, List.of(), List.of());

    /**
     * Create-only reviews (kubectl auth can-i, whoami): nothing is stored, each POST answers a question about the
     * caller. In discovery and OpenAPI with the {@code create} verb only; not in the registry or the store.
     */
    public static final List<ResourceType> REVIEW_TYPES = List.of(SELF_SUBJECT_ACCESS_REVIEWS,
            SELF_SUBJECT_RULES_REVIEWS, SELF_SUBJECT_REVIEWS);

    /**
     * The {@code bindings} collection a scheduler POSTs a {@code v1 Binding} to (the older form of
     * {@code pods/binding}, {@link #BINDING_SUBRESOURCE}): create only, the Pod is written, nothing else is stored.
     */
    public static final ResourceType BINDINGS = new ResourceType("", "v1", "Binding", "bindings", "binding", true,
            false, List.of(), List.of());

    /** The Pods' create-only subresource that takes a {@link #BINDINGS Binding}. */
    public static final String BINDING_SUBRESOURCE = "binding";

    /** Everything discovery and OpenAPI list: bindings (first, as kube lists it), the served resources, the reviews. */
    public static final List<ResourceType> DISCOVERABLE_TYPES = java.util.stream.Stream.of(Stream.of(BINDINGS),
            SERVED_TYPES.stream(), REVIEW_TYPES.stream()).flatMap(s -> s).toList();

    private static final Map<String, ResourceType> BY_PATH = SERVED_TYPES.stream()
            .collect(Collectors.toUnmodifiableMap(t -> key(t.group(), t.version(), t.plural()), Function.identity()));

    private ResourceTypes() {
    }

    /** Whether a type only accepts {@code create} (the reviews, bindings). */
    public static boolean isCreateOnly(ResourceType type) {
        return type == BINDINGS || REVIEW_TYPES.contains(type);
    }

    /**
     * Whether a type serves get, list and watch only (the CustomResourceDefinitions): any write is refused with 405
     * MethodNotAllowed, as kube-apiserver refuses a verb a resource does not serve.
     */
    public static boolean isReadOnly(ResourceType type) {
        return type == CUSTOMRESOURCEDEFINITIONS;
    }

    public static Optional<ResourceType> find(String group, String version, String plural) {
        return Optional.ofNullable(BY_PATH.get(key(group, version, plural)));
    }

    private static String key(String group, String version, String plural) {
        return group + "/" + version + "/" + plural;
    }
}
