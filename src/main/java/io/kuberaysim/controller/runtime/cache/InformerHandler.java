package io.kuberaysim.controller.runtime.cache;

import io.kuberaysim.apiserver.storage.StoredObject;

/**
 * Receives the changes a {@link SharedInformer} applies to its cache, on the control loop, in the order
 * they were written. Handlers must be quick (typically: enqueue a request) and must not block.
 */
public interface InformerHandler {

    /** An object appeared (also called for every cached object when a handler is added late). */
    default void onAdd(StoredObject o) {
    }

    /** An object changed; {@code oldObj} is the cached state before the change. */
    default void onUpdate(StoredObject oldObj, StoredObject newObj) {
    }

    /** An object disappeared; {@code o} is its last known state. */
    default void onDelete(StoredObject o) {
    }
}
