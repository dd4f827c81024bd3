package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.storage.StoredObject;

import java.util.List;

/** The object a write produced (or would produce, on a dry run), warnings for the client, and whether it was created. */
public record WriteResult(StoredObject object, List<String> warnings, boolean created) {
}
