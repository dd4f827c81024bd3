package io.kuberaysim.controller.ray;

import io.kuberaysim.controller.runtime.reconcile.Result;

/**
 * How one step of a reconcile pass ends, as the steps of KubeRay's reconcilers do: go on with the pass (in the
 * RayJob controller: on to the status write after the state switch), or return a result at once.
 */
public sealed interface Step {
    /** Go on with the pass. */
    Step CONTINUE = new Continue();

    /** End the pass now with {@code result}. */
    static Step returnNow(Result result) {
        return new Return(result);
    }

    /** Go on with the pass. */
    record Continue() implements Step {
    }

    /** End the pass with {@code result}. */
    record Return(Result result) implements Step {
    }
}
