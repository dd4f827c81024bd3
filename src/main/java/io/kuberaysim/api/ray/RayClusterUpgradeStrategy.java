package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * How a standalone RayCluster reacts to spec changes.
 *
 * @param type {@code Recreate} deletes and recreates all Pods when the Pod templates change; {@code None} does nothing
 */
@Description("Upgrade strategy of a standalone RayCluster.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayClusterUpgradeStrategy(
        @Description("Recreate: delete and recreate every Pod when the Pod templates change. None: leave "
                + "existing Pods alone.")
        Type type) {

    /** Allowed values of {@code type}. */
    public enum Type {
        /** Replace all Pods after a template change. */
        Recreate,
        /** Leave existing Pods unchanged. */
        None
    }
}
