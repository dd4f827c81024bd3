package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.WatchEvent;

/** Receives a filtered watch: events already translated for the watcher's namespace and selectors. */
public interface WatchSink {
    /** Called in resourceVersion order, on the writing thread: must not block. */
    void onEvent(WatchEvent event);

    /** Called once after the synthetic ADDED events of a watch that asked for initial events. */
    default void onInitialEventsEnd(long resourceVersion) {
    }

    /** Called at most once when the watch cannot go on (e.g. its resourceVersion was never reached); no events follow. */
    default void fail(ApiException error) {
    }
}
