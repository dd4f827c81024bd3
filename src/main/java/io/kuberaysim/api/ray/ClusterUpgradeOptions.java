package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Default;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;
import io.kuberaysim.api.schema.Required;

/**
 * Parameters of the incremental (NewClusterWithIncrementalUpgrade) upgrade.
 *
 * @param maxSurgePercent  capacity added to the new cluster per step, in percent
 * @param stepSizePercent  traffic moved per step, in percent
 * @param intervalSeconds  seconds between steps
 * @param gatewayClassName Gateway API class used to split traffic
 */
@Description("Settings of an incremental RayService upgrade.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ClusterUpgradeOptions(
        @Default("100")
        @Minimum(0)
        @Description("Percentage of target capacity the new cluster may gain in one step.")
        Integer maxSurgePercent,
        @Required
        @Minimum(0)
        @Description("Percentage of traffic moved to the new cluster in one step.")
        Integer stepSizePercent,
        @Required
        @Minimum(0)
        @Description("Seconds between two traffic migration steps.")
        Integer intervalSeconds,
        @Required
        @Description("Name of the Gateway API GatewayClass that routes the traffic.")
        String gatewayClassName) {
}
