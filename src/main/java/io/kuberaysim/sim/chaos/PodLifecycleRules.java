package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

/**
 * What the PodLifecycleRules of a Pod's namespace say about it: the first rule by name whose selectors match decides
 * each knob it sets. Values drawn from a distribution come from the chaos stream keyed by the Pod's uid, the rule and
 * the knob, so a Pod keeps its timings however often the kubelet looks at it. No rule = nothing is said, and the
 * kubelet keeps its defaults.
 */
public final class PodLifecycleRules {
    private final SharedInformer rules;
    private final ChaosRandom random;

    public PodLifecycleRules(ControllerManager manager, ChaosRandom random) {
        this.rules = manager.informer(ResourceTypes.PODLIFECYCLERULES);
        this.random = random;
    }

    /** Time from scheduling to Running; null when no rule sets it. */
    public Duration startupDelay(StoredObject pod) {
        return drawn(pod, "startupDelay", 0);
    }

    /** Time from Running to Ready; null when no rule sets it. */
    public Duration readinessDelay(StoredObject pod) {
        return drawn(pod, "readinessDelay", 0);
    }

    /** How long the containers run (their {@code restart}-th run); null = for ever. */
    public Duration runTime(StoredObject pod, int restart) {
        return drawn(pod, "runTime", restart);
    }

    /** The exit code of containers that exit; null when no rule sets it. */
    public Integer exitCode(StoredObject pod) {
        JsonNode spec = ruleSetting(pod, "exitCode");
        return spec == null ? null : spec.path("exitCode").asInt(0);
    }

    private Duration drawn(StoredObject pod, String knob, int run) {
        JsonNode spec = ruleSetting(pod, knob);
        if (spec == null) {
            return null;
        }
        return ChaosRandom.draw(spec.get(knob), random.stream("pod", pod.uid(), knob, run));
    }

    /** The spec of the first rule (by name) that matches the Pod and sets {@code knob}. */
    private JsonNode ruleSetting(StoredObject pod, String knob) {
        for (StoredObject rule : rules.list(pod.namespace(), null)) {
            JsonNode spec = rule.object().path("spec");
            if (spec.has(knob) && SpecSelectors.match(spec, pod)) {
                return spec;
            }
        }
        return null;
    }
}
