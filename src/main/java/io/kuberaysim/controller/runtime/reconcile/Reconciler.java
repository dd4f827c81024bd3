package io.kuberaysim.controller.runtime.reconcile;

/**
 * Drives the object named by a {@link Request} towards its desired state. Called with the same
 * request again whenever the object (or anything it watches) changes; never called for the same
 * request twice at once.
 */
@FunctionalInterface
public interface Reconciler {

    /**
     * Reconciles one object.
     *
     * @return when to come back; an exception means "retry with backoff"
     */
    Result reconcile(Request request) throws Exception;
}
