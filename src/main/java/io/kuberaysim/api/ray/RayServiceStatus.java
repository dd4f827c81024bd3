package io.kuberaysim.api.ray;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * State of the active or the pending cluster of a RayService.
 *
 * @param applicationStatuses     Serve applications by name ("" shown as "default")
 * @param rayClusterName          name of the cluster
 * @param rayClusterStatus        copy of the cluster's status
 * @param targetCapacity          share of capacity the cluster should serve, in percent
 * @param trafficRoutedPercent    share of traffic routed to it, in percent
 * @param lastTrafficMigratedTime last traffic change
 */
@Description("Status of one of the RayService's clusters and of its Serve applications.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayServiceStatus(
        @Description("Status of each Serve application, by application name.")
        Map<String, AppStatus> applicationStatuses,
        @Description("Name of the RayCluster.")
        String rayClusterName,
        @Description("Status of the RayCluster.")
        RayClusterStatus rayClusterStatus,
        @Description("Percentage of the total capacity this cluster is meant to serve during an incremental "
                + "upgrade.")
        Integer targetCapacity,
        @Description("Percentage of traffic currently routed to this cluster during an incremental upgrade.")
        Integer trafficRoutedPercent,
        @Description("Last time traffic was moved between clusters.")
        Instant lastTrafficMigratedTime) {
}
