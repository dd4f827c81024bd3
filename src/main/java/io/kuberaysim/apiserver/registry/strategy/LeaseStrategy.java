package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * coordination.k8s.io/v1 Lease: what leader election (client-go, controller-runtime, java-operator-sdk) and node
 * heartbeats write. Stored as given; a duration must be positive and the transition count not negative, as
 * kube-apiserver's lease validation says.
 */
public final class LeaseStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.LEASES;
    }

    @Override
    public Class<?> model() {
        return Lease.class;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode duration = object.path("spec").get("leaseDurationSeconds");
        if (duration != null && duration.isNumber() && duration.asLong() <= 0) {
            causes.add(StatusCause.invalid("spec.leaseDurationSeconds", duration.asLong(), "must be greater than 0"));
        }
        JsonNode transitions = object.path("spec").get("leaseTransitions");
        if (transitions != null && transitions.isNumber() && transitions.asLong() < 0) {
            causes.add(StatusCause.invalid("spec.leaseTransitions", transitions.asLong(),
                    "must be greater than or equal to 0"));
        }
        return causes;
    }
}
