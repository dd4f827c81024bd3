package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.ResourceType;

/**
 * Told about every object event an HTTP watch writes to its client (kube-apiserver's
 * {@code apiserver_watch_events_total}). Called on watch writer threads; must be thread-safe and cheap.
 */
@FunctionalInterface
public interface WatchEventsListener {

    /** Hears nothing. */
    WatchEventsListener NONE = (type, events) -> {
    };

    /** {@code events} ADDED, MODIFIED or DELETED events of {@code type} were sent to one watcher. */
    void sent(ResourceType type, int events);
}
