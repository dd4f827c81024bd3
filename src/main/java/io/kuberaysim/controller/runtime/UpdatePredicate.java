package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.StoredObject;

import java.util.Objects;

/** Decides whether an update of a watched object is worth a reconcile (controller-runtime's update predicates). */
@FunctionalInterface
public interface UpdatePredicate {

    /** True when the change from {@code oldObj} to {@code newObj} should enqueue a request. */
    boolean test(StoredObject oldObj, StoredObject newObj);

    /**
     * KubeRay's primary-resource filter: {@code metadata.generation}, labels or annotations changed
     * (so status-only writes, including the reconciler's own, do not trigger another reconcile). A
     * graceful deletion bumps the generation, so it passes too.
     */
    UpdatePredicate GENERATION_LABELS_OR_ANNOTATIONS_CHANGED = (oldObj, newObj) ->
            !Objects.equals(Json.at(oldObj.object(), "metadata", "generation"),
                    Json.at(newObj.object(), "metadata", "generation"))
                    || !oldObj.labels().equals(newObj.labels())
                    || !Objects.equals(Json.at(oldObj.object(), "metadata", "annotations"),
                    Json.at(newObj.object(), "metadata", "annotations"))
                    || oldObj.isDeleting() != newObj.isDeleting();

    /** Every update passes. */
    UpdatePredicate ALWAYS = (oldObj, newObj) -> true;
}
