package io.kuberaysim.apiserver.registry;

/** Query parameters of a list or watch, as kube-apiserver accepts them. Null means absent. */
public record ListOptions(String labelSelector, String fieldSelector, Long limit, String continueToken,
                          String resourceVersion, Long timeoutSeconds, boolean allowWatchBookmarks,
                          boolean sendInitialEvents) {
    public static final ListOptions ALL = new ListOptions(null, null, null, null, null, null, false, false);

    public static ListOptions labels(String labelSelector) {
        return new ListOptions(labelSelector, null, null, null, null, null, false, false);
    }

    public static ListOptions fields(String fieldSelector) {
        return new ListOptions(null, fieldSelector, null, null, null, null, false, false);
    }
}
