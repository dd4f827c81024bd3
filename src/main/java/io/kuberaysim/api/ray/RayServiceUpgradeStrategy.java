package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * How a RayService rolls out changes to its cluster spec.
 *
 * @param type                  the strategy
 * @param clusterUpgradeOptions incremental upgrade settings
 */
@Description("Upgrade strategy of a RayService.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayServiceUpgradeStrategy(
        @Description("NewCluster: bring up a new cluster and switch traffic once it is ready. "
                + "NewClusterWithIncrementalUpgrade: move traffic step by step. None: do not upgrade.")
        Type type,
        @Description("Settings of the incremental upgrade.")
        ClusterUpgradeOptions clusterUpgradeOptions) {

    /** Allowed values of {@code type}. */
    public enum Type {
        /** Blue/green: new cluster, switch when ready. */
        NewCluster,
        /** Gradual traffic migration through Gateway API. */
        NewClusterWithIncrementalUpgrade,
        /** Never replace the cluster. */
        None
    }
}
