package io.kuberaysim.api.ray;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Default;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Required;
import tools.jackson.databind.node.ObjectNode;

/**
 * A worker Pod group of a RayCluster (KubeRay {@code WorkerGroupSpec}).
 *
 * @param groupName          name distinguishing the group
 * @param replicas           desired replicas (defaulted to 0)
 * @param minReplicas        lower bound of replicas (defaulted to 0)
 * @param maxReplicas        upper bound of replicas (defaulted to 2147483647)
 * @param numOfHosts         Pods per replica (defaulted to 1)
 * @param idleTimeoutSeconds autoscaler v2 idle timeout for this group
 * @param priority           autoscaler v2 scheduling priority (defaulted to 0)
 * @param scaleStrategy      explicit Pods to remove
 * @param suspend            internal: delete this group's Pods
 * @param resources          Ray logical resources of the group
 * @param labels             Ray node labels of the group
 * @param rayStartParams     flags for {@code ray start}
 * @param template           Pod template of the workers, kept verbatim
 */
@Description("Specification of one group of identical Ray worker Pods.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WorkerGroupSpec(
        @Required
        @Description("Name of the worker group; unique within the cluster and used in Pod names and labels.")
        String groupName,
        @Default("0")
        @Description("Desired number of replicas in this group. The operator clamps it between minReplicas "
                + "and maxReplicas.")
        Integer replicas,
        @Required
        @Default("0")
        @Description("Smallest number of replicas the group may have.")
        Integer minReplicas,
        @Required
        @Default("2147483647")
        @Description("Largest number of replicas the group may have; defaults to the largest int32.")
        Integer maxReplicas,
        @Default("1")
        @Description("Number of hosts (Pods) per replica, for multi-host groups such as TPU slices.")
        Integer numOfHosts,
        @Description("Seconds a worker may stay idle before the autoscaler removes it; requires autoscaler v2.")
        Integer idleTimeoutSeconds,
        @Default("0")
        @Description("Scheduling priority of the group for the autoscaler; non-zero needs autoscaler v2.")
        Integer priority,
        @Description("Explicit choice of workers to remove when scaling down.")
        ScaleStrategy scaleStrategy,
        @Description("Internal field, not meant for users: when true, the group's Pods are deleted "
                + "(used by the RayJob DeleteWorkers policy).")
        Boolean suspend,
        @Description("Ray logical resources advertised by the group's workers.")
        Map<String, String> resources,
        @Description("Ray node labels of the group's workers.")
        Map<String, String> labels,
        @Description("Parameters passed to 'ray start' on the workers. Values must be strings.")
        Map<String, String> rayStartParams,
        @Required
        @PreserveUnknownFields
        @Description("Pod template (a Kubernetes PodTemplateSpec) for the group's workers.")
        ObjectNode template) {

    /** Replicas as the operator reads them: absent counts as 0. */
    public int replicasOrZero() {
        return replicas == null ? 0 : replicas;
    }

    /** minReplicas, absent counts as 0. */
    public int minReplicasOrDefault() {
        return minReplicas == null ? 0 : minReplicas;
    }

    /** maxReplicas, absent counts as the largest int32. */
    public int maxReplicasOrDefault() {
        return maxReplicas == null ? Integer.MAX_VALUE : maxReplicas;
    }

    /** numOfHosts, absent or non-positive counts as 1. */
    public int numOfHostsOrDefault() {
        return numOfHosts == null || numOfHosts < 1 ? 1 : numOfHosts;
    }

    /** Whether {@code suspend} is set to true. */
    public boolean suspended() {
        return Boolean.TRUE.equals(suspend);
    }
}
