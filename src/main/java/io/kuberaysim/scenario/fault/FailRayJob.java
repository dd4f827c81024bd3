package io.kuberaysim.scenario.fault;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepSource;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code fault: {type: failRayJob, name: my-rayjob}}: the RayJob's running Ray job fails now on the simulated
 * dashboard (entrypoint exit code 1), as if the user's code crashed; KubeRay then retries or fails the RayJob by
 * its {@code backoffLimit}.
 */
public record FailRayJob(ObjectRef rayJob) implements Fault {
    @Override
    public void inject(ScenarioRun run) {
        StoredObject job = rayJob.get(run.client());
        if (job == null) {
            throw new StepFailedException(rayJob + " does not exist");
        }
        String cluster = Json.text(job.object(), "status", "rayClusterName");
        String jobId = Json.text(job.object(), "status", "jobId");
        AtomicBoolean failed = new AtomicBoolean();
        if (run.cluster() != null && cluster != null && jobId != null) {
            // on the control loop, where the dashboard's listeners (the RayJob controller) expect to be called
            run.clock().execute(() -> failed.set(run.cluster().rayDashboard().jobs()
                    .fail(new ClusterKey(job.namespace(), cluster), jobId)));
            run.clock().awaitIdle();
        }
        if (!failed.get()) {
            throw new StepFailedException(rayJob + " has no running Ray job to fail (jobDeploymentStatus "
                    + Json.text(job.object(), "status", "jobDeploymentStatus") + ")");
        }
    }

    @Override
    public String describe() {
        return "failRayJob " + rayJob;
    }

    /** The {@code failRayJob} type. */
    public static final class Kind implements FaultKind {
        @Override
        public String name() {
            return "failRayJob";
        }

        @Override
        public Fault parse(StepSource source) {
            return new FailRayJob(ObjectRef.of(ResourceTypes.RAYJOBS, source, false));
        }
    }
}
