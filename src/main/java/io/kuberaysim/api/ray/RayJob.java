package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.SchemaGenerator;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code ray.io/v1} RayJob.
 *
 * @param apiVersion {@code ray.io/v1}
 * @param kind       {@code RayJob}
 * @param metadata   standard object metadata
 * @param spec       desired state
 * @param status     observed state
 */
@Description("RayJob runs a Ray job, on a RayCluster it creates or on an existing one.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayJob(
        @Description("Versioned schema of this representation of an object.")
        String apiVersion,
        @Description("REST resource this object represents.")
        String kind,
        @PreserveUnknownFields
        @Description("Standard object metadata.")
        ObjectNode metadata,
        @Description("Desired state of the RayJob.")
        RayJobSpec spec,
        @Description("Observed state of the RayJob, written by the operator.")
        RayJobStatus status) {

    /** Group and version. */
    public static final String API_VERSION = "ray.io/v1";
    /** Kind. */
    public static final String KIND = "RayJob";
    /** Plural resource name. */
    public static final String PLURAL = "rayjobs";

    /** The structural schema of the whole resource. */
    public static Schema schema() {
        return SchemaGenerator.generate(RayJob.class);
    }
}
