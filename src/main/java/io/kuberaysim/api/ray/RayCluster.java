package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.SchemaGenerator;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code ray.io/v1} RayCluster. {@code metadata} is kept as a tree: the apiserver owns it, not the schema.
 *
 * @param apiVersion {@code ray.io/v1}
 * @param kind       {@code RayCluster}
 * @param metadata   standard object metadata
 * @param spec       desired state
 * @param status     observed state
 */
@Description("RayCluster is a Ray cluster on Kubernetes: a head Pod and groups of worker Pods.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayCluster(
        @Description("Versioned schema of this representation of an object.")
        String apiVersion,
        @Description("REST resource this object represents.")
        String kind,
        @PreserveUnknownFields
        @Description("Standard object metadata.")
        ObjectNode metadata,
        @Description("Desired state of the Ray cluster.")
        RayClusterSpec spec,
        @Description("Observed state of the Ray cluster, written by the operator.")
        RayClusterStatus status) {

    /** API group. */
    public static final String GROUP = "ray.io";
    /** Group and version. */
    public static final String API_VERSION = "ray.io/v1";
    /** Kind. */
    public static final String KIND = "RayCluster";
    /** Plural resource name. */
    public static final String PLURAL = "rayclusters";

    /** The structural schema of the whole resource. */
    public static Schema schema() {
        return SchemaGenerator.generate(RayCluster.class);
    }
}
