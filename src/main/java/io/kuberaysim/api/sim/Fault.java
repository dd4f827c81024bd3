package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;
import io.kuberaysim.api.schema.Required;

/**
 * One fault a {@link FaultScheduleSpec} injects each time it fires.
 *
 * @param type        what happens (and to which kind of object)
 * @param exitCode    CrashContainer: the containers' exit code (default 1)
 * @param duration    NodeNotReady, DashboardUnreachable, ApiErrors: how long; SlowRayJob: the extra run time
 * @param code        ApiErrors: 409 (Conflict) or 500 (InternalError); default 500
 * @param probability ApiErrors: the share of the operator's writes that fail, 0 to 1; default 1
 */
@Description("The fault injected each time the schedule fires.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Fault(
        @Required
        @Description("DeletePod, CrashContainer, NodeNotReady, DeleteNode, CordonNode, FailRayJob, SlowRayJob, "
                + "FailServeApp, DashboardUnreachable or ApiErrors.")
        FaultType type,
        @Minimum(0)
        @Description("CrashContainer: exit code of the containers; default 1.")
        Integer exitCode,
        @Description("NodeNotReady, DashboardUnreachable, ApiErrors: how long; SlowRayJob: extra run time.")
        Distribution duration,
        @Description("ApiErrors: HTTP code of the failed writes, 409 or 500; default 500.")
        Integer code,
        @Description("ApiErrors: share of the operator's writes that fail, from 0 to 1; default 1.")
        Double probability) {
}
