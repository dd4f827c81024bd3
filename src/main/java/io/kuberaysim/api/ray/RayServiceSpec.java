package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Required;
import tools.jackson.databind.node.ObjectNode;

/**
 * Desired state of a RayService (KubeRay {@code RayServiceSpec}).
 *
 * @param serveConfigV2                      Serve applications as YAML
 * @param rayClusterConfig                   cluster to run them on
 * @param upgradeStrategy                    how cluster changes are rolled out
 * @param rayClusterDeletionDelaySeconds     delay before an old cluster is deleted
 * @param serviceUnhealthySecondThreshold    deprecated, unused
 * @param deploymentUnhealthySecondThreshold deprecated, unused
 * @param serveService                       overrides for the serve Service, kept verbatim
 * @param excludeHeadPodFromServeSvc         keep the head Pod out of the serve Service
 * @param suspend                            delete the clusters while true
 * @param managedBy                          controller responsible for this service
 */
@Description("Desired state of a RayService: Ray Serve applications and the cluster that runs them.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayServiceSpec(
        @Description("Ray Serve applications and deployments, as a multi-line YAML string in the Serve "
                + "config V2 format.")
        String serveConfigV2,
        @Required
        @Description("Spec of the RayCluster that runs the Serve applications.")
        RayClusterSpec rayClusterConfig,
        @Description("How a change of rayClusterConfig is rolled out.")
        RayServiceUpgradeStrategy upgradeStrategy,
        @Minimum(0)
        @Description("Seconds to wait before deleting a cluster that no longer serves traffic; the operator "
                + "uses 60 when unset.")
        Integer rayClusterDeletionDelaySeconds,
        @Description("Deprecated and unused.")
        Integer serviceUnhealthySecondThreshold,
        @Description("Deprecated and unused.")
        Integer deploymentUnhealthySecondThreshold,
        @PreserveUnknownFields
        @Description("A Kubernetes Service whose fields customise the serve Service that routes to Pods "
                + "with a healthy Serve proxy.")
        ObjectNode serveService,
        @Description("When true, the head Pod is not an endpoint of the serve Service.")
        Boolean excludeHeadPodFromServeSvc,
        @Description("When true, the RayService's clusters are deleted until it is set back to false.")
        Boolean suspend,
        @Description("Controller that manages this service. Immutable.")
        String managedBy) {
}
