package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.errors.StatusCause;

import java.util.ArrayList;
import java.util.List;

/**
 * Query parameters of a list or watch, as kube-apiserver accepts them. Null means absent.
 *
 * @param sendInitialEvents    null when the request did not name it: a watch then sends the current objects first
 *                             only when it starts from no resourceVersion or "0", as kube-apiserver defaults it
 * @param resourceVersionMatch {@code NotOlderThan} or {@code Exact}: how a list reads {@code resourceVersion}
 */
public record ListOptions(String labelSelector, String fieldSelector, Long limit, String continueToken,
                          String resourceVersion, Long timeoutSeconds, boolean allowWatchBookmarks,
                          Boolean sendInitialEvents, String resourceVersionMatch) {
    public static final ListOptions ALL = new ListOptions(null, null, null, null, null, null, false, null);

    /** Options without a resourceVersionMatch. */
    public ListOptions(String labelSelector, String fieldSelector, Long limit, String continueToken,
                       String resourceVersion, Long timeoutSeconds, boolean allowWatchBookmarks,
                       Boolean sendInitialEvents) {
        this(labelSelector, fieldSelector, limit, continueToken, resourceVersion, timeoutSeconds, allowWatchBookmarks,
                sendInitialEvents, null);
    }

    /** Whether a watch sends the objects that match before the changes: as asked, else only from "" or "0". */
    public boolean initialEvents() {
        if (sendInitialEvents != null) {
            return sendInitialEvents;
        }
        return resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.equals("0");
    }

    /**
     * kube-apiserver's ListOptions validation (answered as 422 {@code ListOptions.meta.k8s.io "" is invalid}):
     * which resourceVersionMatch goes with which resourceVersion, continue and sendInitialEvents.
     */
    public List<StatusCause> validate(boolean watch) {
        boolean sendInitialEventsGiven = sendInitialEvents != null;
        List<StatusCause> causes = new ArrayList<>();
        String match = resourceVersionMatch == null ? "" : resourceVersionMatch;
        boolean hasContinue = continueToken != null && !continueToken.isEmpty();
        if (watch) {
            if (sendInitialEventsGiven && !match.equals(ListRead.NOT_OLDER_THAN)) {
                causes.add(StatusCause.forbidden("resourceVersionMatch",
                        "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
            }
            if (!match.isEmpty()) {
                if (!sendInitialEventsGiven) {
                    causes.add(StatusCause.forbidden("resourceVersionMatch",
                            "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
                }
                if (!match.equals(ListRead.NOT_OLDER_THAN)) {
                    causes.add(StatusCause.notSupported("resourceVersionMatch", match, List.of(ListRead.NOT_OLDER_THAN)));
                }
                if (hasContinue) {
                    causes.add(StatusCause.forbidden("resourceVersionMatch",
                            "resourceVersionMatch is forbidden when continue is provided"));
                }
            }
            return causes;
        }
        if (!match.isEmpty()) {
            if (resourceVersion == null || resourceVersion.isEmpty()) {
                causes.add(StatusCause.forbidden("resourceVersionMatch",
                        "resourceVersionMatch is forbidden unless resourceVersion is provided"));
            }
            if (hasContinue) {
                causes.add(StatusCause.forbidden("resourceVersionMatch",
                        "resourceVersionMatch is forbidden when continue is provided"));
            }
            if (!match.equals(ListRead.EXACT) && !match.equals(ListRead.NOT_OLDER_THAN)) {
                causes.add(StatusCause.notSupported("resourceVersionMatch", match,
                        List.of(ListRead.EXACT, ListRead.NOT_OLDER_THAN, "")));
            }
            if (match.equals(ListRead.EXACT) && "0".equals(resourceVersion)) {
                causes.add(StatusCause.forbidden("resourceVersionMatch",
                        "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
            }
        }
        if (sendInitialEventsGiven) {
            causes.add(StatusCause.forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
        }
        return causes;
    }

    public static ListOptions labels(String labelSelector) {
        return new ListOptions(labelSelector, null, null, null, null, null, false, null);
    }

    public static ListOptions fields(String fieldSelector) {
        return new ListOptions(null, fieldSelector, null, null, null, null, false, null);
    }
}
