package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;

/**
 * How the simulated kubelet runs the Pods a rule selects. Unset knobs keep the kubelet's defaults; a Pod's own
 * {@code sim.kuberay.io/*} annotations win over any rule.
 *
 * @param selector           label selector over the Pods of the rule's namespace ({@code kubectl -l} syntax); empty
 *                           = every Pod
 * @param annotationSelector the same syntax over the Pods' annotations
 * @param startupDelay       from scheduling to Running
 * @param readinessDelay     from Running to Ready
 * @param runTime            how long the containers run before they exit; unset = for ever
 * @param exitCode           exit code of containers that exit (default 0)
 */
@Description("How the simulated kubelet runs the Pods this rule selects.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PodLifecycleRuleSpec(
        @Description("Label selector over Pods in this namespace, kubectl -l syntax (e.g. ray.io/node-type=worker); "
                + "empty selects every Pod.")
        String selector,
        @Description("Selector over the Pods' annotations, same syntax.")
        String annotationSelector,
        @Description("Time from scheduling to Running.")
        Distribution startupDelay,
        @Description("Time from Running to Ready.")
        Distribution readinessDelay,
        @Description("Time the containers run before they exit; unset runs them for ever.")
        Distribution runTime,
        @Minimum(0)
        @Description("Exit code of containers that exit; default 0.")
        Integer exitCode) {
}
