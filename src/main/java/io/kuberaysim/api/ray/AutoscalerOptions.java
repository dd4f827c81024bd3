package io.kuberaysim.api.ray;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import tools.jackson.databind.node.ObjectNode;

/**
 * Settings of the Ray autoscaler sidecar (KubeRay {@code AutoscalerOptions}); Kubernetes-typed parts are kept verbatim.
 *
 * @param resources          container resources
 * @param image              container image override
 * @param imagePullPolicy    container image pull policy
 * @param securityContext    container security context
 * @param idleTimeoutSeconds seconds before an idle worker is removed
 * @param upscalingMode      how fast the autoscaler adds workers
 * @param version            autoscaler generation
 * @param env                container environment variables
 * @param envFrom            container environment sources
 * @param volumeMounts       container volume mounts
 * @param command            container command override
 * @param args               container arguments override
 */
@Description("Optional configuration of the Ray autoscaler sidecar.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AutoscalerOptions(
        @PreserveUnknownFields
        @Description("Resource requests and limits of the autoscaler container; the operator uses 500m CPU "
                + "and 512Mi memory when unset.")
        ObjectNode resources,
        @Description("Image of the autoscaler container, overriding the Ray image.")
        String image,
        @Description("Image pull policy of the autoscaler container.")
        String imagePullPolicy,
        @PreserveUnknownFields
        @Description("Security context of the autoscaler container.")
        ObjectNode securityContext,
        @Description("Seconds a worker must be idle before it is scaled down. Read by the Ray autoscaler, "
                + "which uses 60 when unset.")
        Integer idleTimeoutSeconds,
        @Description("Conservative limits the pending workers to the cluster size; Default and Aggressive "
                + "do not limit upscaling.")
        UpscalingMode upscalingMode,
        @Description("Autoscaler version, v1 or v2.")
        Version version,
        @Description("Extra environment variables of the autoscaler container.")
        List<ObjectNode> env,
        @Description("Extra environment sources of the autoscaler container.")
        List<ObjectNode> envFrom,
        @Description("Extra volume mounts of the autoscaler container.")
        List<ObjectNode> volumeMounts,
        @Description("Command of the autoscaler container, overriding the default.")
        List<String> command,
        @Description("Arguments of the autoscaler container, overriding the default.")
        List<String> args) {

    /** Allowed values of {@code upscalingMode}. */
    public enum UpscalingMode {
        /** Upscaling is not rate-limited. */
        Default,
        /** Alias of Default. */
        Aggressive,
        /** Pending workers are limited to the cluster size. */
        Conservative
    }

    /** Allowed values of {@code version}. */
    public enum Version {
        /** The original autoscaler. */
        v1,
        /** The second-generation autoscaler. */
        v2
    }
}
