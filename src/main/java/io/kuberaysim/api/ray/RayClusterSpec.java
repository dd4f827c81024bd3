package io.kuberaysim.api.ray;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Required;
import tools.jackson.databind.node.ObjectNode;

/**
 * Desired state of a RayCluster (KubeRay {@code RayClusterSpec}); also embedded in RayJob and RayService.
 *
 * @param headGroupSpec            the head Pod group
 * @param workerGroupSpecs         the worker Pod groups
 * @param rayVersion               Ray version of the images
 * @param enableInTreeAutoscaling  inject the autoscaler sidecar into the head Pod
 * @param autoscalerOptions        autoscaler container settings
 * @param suspend                  delete all Pods while true
 * @param managedBy                controller responsible for this cluster
 * @param gcsFaultToleranceOptions GCS fault tolerance settings, kept verbatim
 * @param headServiceAnnotations   annotations copied onto the head Service
 * @param upgradeStrategy          what to do with Pods when the spec changes
 * @param authOptions              Ray authentication settings, kept verbatim
 * @param historyServerOptions     Ray history server collector settings, kept verbatim (not simulated)
 * @param networkPolicy            NetworkPolicies KubeRay would create for the cluster, kept verbatim (not simulated)
 * @param tlsOptions               mTLS through cert-manager, kept verbatim (not simulated)
 */
@Description("Desired state of a RayCluster: one head group and any number of worker groups.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayClusterSpec(
        @Required
        @Description("Specification of the head Pod group: its Pod template, ray start parameters and head Service.")
        HeadGroupSpec headGroupSpec,
        @Description("Specifications of the worker Pod groups; each group has its own template and replica bounds.")
        List<WorkerGroupSpec> workerGroupSpecs,
        @Description("Version of Ray run by the images. Used to build the job submission command and to gate "
                + "version-dependent features.")
        String rayVersion,
        @Description("When true, the operator adds a Ray autoscaler sidecar to the head Pod, which then manages "
                + "worker replicas.")
        Boolean enableInTreeAutoscaling,
        @Description("Optional settings for the Ray autoscaler container (resources, image, idle timeout, "
                + "upscaling mode, version).")
        AutoscalerOptions autoscalerOptions,
        @Description("When true, every Pod of the cluster is deleted; setting it back to false recreates them.")
        Boolean suspend,
        @Description("Controller that manages this cluster: 'ray.io/kuberay-operator' or "
                + "'kueue.x-k8s.io/multikueue'. Any other manager makes KubeRay skip the object. Immutable.")
        String managedBy,
        @PreserveUnknownFields
        @Description("GCS fault tolerance configuration (external Redis or embedded storage). Kept as given.")
        ObjectNode gcsFaultToleranceOptions,
        @Description("Annotations to put on the head Service.")
        Map<String, String> headServiceAnnotations,
        @Description("Strategy applied to the cluster's Pods when the spec changes. Only allowed on a "
                + "RayCluster that is not owned by a RayJob or RayService.")
        RayClusterUpgradeStrategy upgradeStrategy,
        @PreserveUnknownFields
        @Description("Ray authentication options (mode, secretName, ...). Kept as given.")
        ObjectNode authOptions,
        @PreserveUnknownFields
        @Description("History server settings (the collector sidecar's image, resources and env). Kept as given; "
                + "no collector is added.")
        ObjectNode historyServerOptions,
        @PreserveUnknownFields
        @Description("Network isolation (mode DenyAll, DenyAllIngress or DenyAllEgress, and head, worker and "
                + "per-group rules). Kept as given; no NetworkPolicy is created.")
        ObjectNode networkPolicy,
        @PreserveUnknownFields
        @Description("TLS settings ('enabled' turns on mTLS with certificates from cert-manager). Kept as given; "
                + "no certificates are issued.")
        ObjectNode tlsOptions) {

    /** The worker groups, never null. */
    public List<WorkerGroupSpec> workerGroups() {
        return workerGroupSpecs == null ? List.of() : workerGroupSpecs;
    }

    /** Whether {@code suspend} is set to true. */
    public boolean suspended() {
        return Boolean.TRUE.equals(suspend);
    }
}
