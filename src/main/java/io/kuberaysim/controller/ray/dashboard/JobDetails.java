package io.kuberaysim.controller.ray.dashboard;

import java.util.Map;

/**
 * What {@code GET /api/jobs/<id>} returns.
 *
 * @param submissionId the job id
 * @param status       current state
 * @param message      Ray's message for the state
 * @param entrypoint   the command
 * @param metadata     submission metadata
 * @param runtimeEnv   runtime environment as JSON, or null
 * @param startTime    ms since the epoch when the job started running, 0 before
 * @param endTime      ms since the epoch when the job ended, 0 before
 */
public record JobDetails(String submissionId, JobState status, String message, String entrypoint,
                         Map<String, String> metadata, String runtimeEnv, long startTime, long endTime) {
}
