package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.WatchEvent;

/**
 * A watch's later changes as its watcher reads them, at its own pace: already filtered for its namespace and
 * selectors, objects entering or leaving the selection retyped ADDED or DELETED. One thread reads it at a time.
 */
public interface WatchFeed extends ObjectStore.Subscription {

    /**
     * The next change this watcher sees, or null if there is none yet (the wake-up given when the feed was opened
     * runs when one arrives).
     *
     * @throws ObjectStore.TooOldResourceVersionException when changes the watcher had not read have left the store's
     *                                                    change log: it fell too far behind
     */
    WatchEvent next();

    /** The revision up to which every change has been looked at: what a bookmark may carry. */
    long resourceVersion();

    /** Changes of the watched type not yet looked at. */
    long behind();
}
