package io.kuberaysim.controller.runtime;

import io.kuberaysim.apiserver.storage.StoredObject;

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
            oldObj.generation() != newObj.generation()
                    || !oldObj.labels().equals(newObj.labels())
                    || !oldObj.annotations().equals(newObj.annotations())
                    || oldObj.isDeleting() != newObj.isDeleting();

    /** Every update passes. */
    UpdatePredicate ALWAYS = (oldObj, newObj) -> true;
}
