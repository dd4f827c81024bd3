package io.kuberaysim.api.ray;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kuberaysim.api.schema.Description;

/**
 * Observed state of a RayCluster (KubeRay {@code RayClusterStatus}); see {@link ClusterState} and
 * {@link RayClusterConditions} for the values the operator writes.
 *
 * @param state                   deprecated overall state
 * @param reason                  detail of the state
 * @param desiredCPU              CPUs requested by all Pods of the spec
 * @param desiredMemory           memory requested by all Pods of the spec
 * @param desiredGPU              GPUs requested by all Pods of the spec
 * @param desiredTPU              TPUs requested by all Pods of the spec
 * @param readyWorkerReplicas     running and ready workers
 * @param availableWorkerReplicas running workers
 * @param desiredWorkerReplicas   workers wanted after clamping
 * @param minWorkerReplicas       sum of the groups' minimums
 * @param maxWorkerReplicas       sum of the groups' maximums
 * @param endpoints               head Service port name to port
 * @param head                    head addresses
 * @param lastUpdateTime          last status computation
 * @param stateTransitionTimes    when each state was entered
 * @param observedGeneration      generation the status was computed from
 * @param conditions              conditions
 */
@Description("Observed state of a RayCluster.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayClusterStatus(
        @Description("Overall state of the cluster: ready or suspended. Deprecated in favour of conditions.")
        String state,
        @Description("More detail on the current state.")
        String reason,
        @Description("Total CPUs requested by the head and worker Pods in the spec.")
        Quantity desiredCPU,
        @Description("Total memory requested by the head and worker Pods in the spec.")
        Quantity desiredMemory,
        @Description("Total GPUs requested by the head and worker Pods in the spec.")
        Quantity desiredGPU,
        @Description("Total TPUs requested by the head and worker Pods in the spec.")
        Quantity desiredTPU,
        @Description("Number of worker Pods that are running and ready.")
        Integer readyWorkerReplicas,
        @Description("Number of worker Pods that are running.")
        Integer availableWorkerReplicas,
        @Description("Number of worker Pods wanted, summed over groups after clamping replicas to their bounds.")
        Integer desiredWorkerReplicas,
        @Description("Sum of minReplicas times numOfHosts over all groups.")
        Integer minWorkerReplicas,
        @Description("Sum of maxReplicas times numOfHosts over all groups.")
        Integer maxWorkerReplicas,
        @Description("Ports of the head Service by port name.")
        Map<String, String> endpoints,
        @Description("Addresses of the head Pod and head Service.")
        HeadInfo head,
        @Description("Time of the last status update.")
        Instant lastUpdateTime,
        @Description("Time at which the cluster entered each state.")
        Map<String, Instant> stateTransitionTimes,
        @Description("The metadata.generation this status was computed from.")
        Long observedGeneration,
        @Description("Conditions describing the cluster, such as HeadPodReady and RayClusterProvisioned.")
        List<Condition> conditions) {

    /** The conditions, never null. */
    public List<Condition> conditionList() {
        return conditions == null ? List.of() : conditions;
    }

    /** The condition of the given type, or {@code null}. */
    public Condition condition(String type) {
        return conditionList().stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }
}
