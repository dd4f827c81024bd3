package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.storage.StoredObject;

/** The object's last state and whether it is gone ({@code false}: it waits for finalizers or a grace period). */
public record DeleteResult(StoredObject object, boolean gone) {
}
