package io.kuberaysim.apiserver.storage;

/**
 * A reader of one type's changes at its own position in the store's change log (kube-apiserver's watch cache: each
 * watcher reads the cache's window at its own pace). Nothing runs on the writing thread for a cursor but a wake-up,
 * and only for a cursor whose reader found nothing left to read: a reader that stops reading costs no work per
 * change. One thread reads a cursor at a time.
 */
public interface WatchCursor extends ObjectStore.Subscription {

    /**
     * The next change of the type after the cursor's position, in revision order; null if there is none yet, and
     * then the cursor's wake-up runs (once) when one arrives.
     *
     * @throws ObjectStore.TooOldResourceVersionException when changes of the type that this cursor had not read
     *                                                    have left the log: the reader fell too far behind
     */
    WatchEvent next();

    /** The revision up to which this cursor has seen every change (of every type): a bookmark's resourceVersion. */
    long resourceVersion();

    /** Changes of the type appended after the cursor's position: how far its reader is behind the writers. */
    long behind();
}
