package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.storage.StoredObject;

import java.util.List;

/** One page of a list: items, the revision read at, and the continue token when more remain. */
public record ListResult(List<StoredObject> items, long resourceVersion, String continueToken,
                         Long remainingItemCount) {
}
