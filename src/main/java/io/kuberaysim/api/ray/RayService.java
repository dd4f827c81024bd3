package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.SchemaGenerator;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code ray.io/v1} RayService.
 *
 * @param apiVersion {@code ray.io/v1}
 * @param kind       {@code RayService}
 * @param metadata   standard object metadata
 * @param spec       desired state
 * @param status     observed state
 */
@Description("RayService runs Ray Serve applications on a RayCluster and upgrades it without downtime.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayService(
        @Description("Versioned schema of this representation of an object.")
        String apiVersion,
        @Description("REST resource this object represents.")
        String kind,
        @PreserveUnknownFields
        @Description("Standard object metadata.")
        ObjectNode metadata,
        @Description("Desired state of the RayService.")
        RayServiceSpec spec,
        @Description("Observed state of the RayService, written by the operator.")
        RayServiceStatuses status) {

    /** Group and version. */
    public static final String API_VERSION = "ray.io/v1";
    /** Kind. */
    public static final String KIND = "RayService";
    /** Plural resource name. */
    public static final String PLURAL = "rayservices";

    /** The structural schema of the whole resource. */
    public static Schema schema() {
        return SchemaGenerator.generate(RayService.class);
    }
}
