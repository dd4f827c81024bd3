package io.kuberaysim.apiserver.registry;

/** metav1.DeleteOptions: from the request body or the query. Null means absent. */
public record DeleteOptions(String propagationPolicy, Long gracePeriodSeconds, String preconditionUid,
                            String preconditionResourceVersion, boolean dryRun, Boolean orphanDependents) {
    public static final DeleteOptions DEFAULT = new DeleteOptions(null, null, null, null, false, null);

    public static DeleteOptions propagation(String policy) {
        return new DeleteOptions(policy, null, null, null, false, null);
    }

    public static DeleteOptions immediate() {
        return new DeleteOptions(null, 0L, null, null, false, null);
    }
}
