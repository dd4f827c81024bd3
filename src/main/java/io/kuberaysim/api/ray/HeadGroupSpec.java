package io.kuberaysim.api.ray;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Required;
import tools.jackson.databind.node.ObjectNode;

/**
 * The head Pod group of a RayCluster (KubeRay {@code HeadGroupSpec}).
 *
 * @param template       Pod template of the head, kept verbatim
 * @param headService    overrides for the head Service, kept verbatim
 * @param enableIngress  create an Ingress for the head Service
 * @param ingressOptions Ingress settings, kept verbatim
 * @param rayStartParams flags for {@code ray start}
 * @param serviceType    Kubernetes Service type of the head Service
 * @param resources      Ray logical resources advertised by the head
 * @param labels         Ray node labels of the head
 */
@Description("Specification of the head Pod of a Ray cluster.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HeadGroupSpec(
        @Required
        @PreserveUnknownFields
        @Description("Pod template (a Kubernetes PodTemplateSpec) for the head Pod.")
        ObjectNode template,
        @PreserveUnknownFields
        @Description("A Kubernetes Service whose fields customise the head Service created by the operator.")
        ObjectNode headService,
        @Description("When true, the operator creates an Ingress for the head Service.")
        Boolean enableIngress,
        @PreserveUnknownFields
        @Description("Host, path, path type and TLS settings of the head Ingress. Kept as given.")
        ObjectNode ingressOptions,
        @Description("Parameters passed to 'ray start' on the head, e.g. dashboard-host or num-cpus. Values "
                + "must be strings.")
        Map<String, String> rayStartParams,
        @Description("Kubernetes Service type of the head Service (ClusterIP, NodePort, LoadBalancer).")
        String serviceType,
        @Description("Ray logical resources the head advertises, overriding the ones derived from the "
                + "container resources.")
        Map<String, String> resources,
        @Description("Ray node labels of the head.")
        Map<String, String> labels) {
}
